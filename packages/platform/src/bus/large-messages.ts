import { UnavailableError } from '@patchbay/contracts';
import { BUS_RETRY_AFTER_S, BusPayloadError } from './bus-errors';
import type { ChunkWire } from './chunk-wire';
import { fetchChunks, offerChunks, parseChunkRef, withdraw } from './chunked-transfer';

/** Header of a request or reply whose bytes are offered in chunks (see chunked-transfer.ts). */
export const CHUNKED_HEADER = 'pb-chunked';
/** Header of an event or job whose bytes are kept in the body store: `<name> <size>`. */
export const STORED_HEADER = 'pb-stored';

/** Default of BUS_MAX_MESSAGE_BYTES: the largest message the bus carries at all, in chunks. */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** Default of BUS_CHUNKED_BYTES: bytes of chunked messages a process holds at once, each way. */
export const DEFAULT_CHUNKED_BYTES = 128 * 1024 * 1024;

/**
 * Room kept in every message for its headers (request ID, trace context, ours): a payload up to
 * max_payload minus this travels as one message, and chunks are this much smaller than max_payload.
 */
export const HEADER_ROOM = 8 * 1024;

/** How long a sender keeps a large request or reply on offer if its receiver never reads it all. */
export const OFFER_TTL_MS = 60_000;

const EMPTY = new Uint8Array(0);

export interface BusLimits {
  /** The largest single message the medium carries (NATS: the server's max_payload); Infinity: no limit. */
  maxPayload: number;
  /** The largest message the bus carries at all (BUS_MAX_MESSAGE_BYTES). */
  maxMessageBytes: number;
  /**
   * Bytes of chunked messages this process holds at once in each direction (BUS_CHUNKED_BYTES):
   * offered to their receivers, and being reassembled. One message is always let through when
   * nothing else is held, so a single message up to `maxMessageBytes` still travels.
   */
  chunkedBytes: number;
}

/** A message ready to send: its bytes, and the header that says where the real bytes are. */
export interface Framed {
  data: Uint8Array;
  /** CHUNKED_HEADER's value, for a message sent in chunks. */
  chunked?: string;
  /** Withdraws a chunk offer when the message could not be sent after all. */
  release(): void;
  /** Settles once the message has left this process: sent whole, or its offer closed. */
  sent: Promise<void>;
}

/** Where events and jobs too large for one message keep their bytes (the JetStream object store). */
export interface BodyStore {
  put(name: string, data: Uint8Array): Promise<void>;
  /** The body, or a BusPayloadError if it is gone. */
  get(name: string): Promise<Uint8Array>;
  delete(name: string): Promise<void>;
}

const SENT = Promise.resolve();

/**
 * The one policy both adapters follow for messages of any size, so no service has to think about
 * it: requests and replies larger than one message go in chunks over `wire`; events and jobs in
 * `bodies`, the message pointing to them; anything over `maxMessageBytes` is refused on the spot.
 * The chunked messages a process holds, offered or being reassembled, stay within `chunkedBytes`
 * each way: past it, a new one is refused at once with a 503 and Retry-After rather than held.
 */
export class LargeMessages {
  /** Bytes of this process's chunked messages still on offer. */
  private offered = 0;
  /** Bytes of chunked messages this process is reassembling. */
  private receiving = 0;

  constructor(
    private readonly wire: ChunkWire,
    private readonly limits: () => BusLimits,
  ) {}

  /** Whether `data` travels as one message. */
  fits(data: Uint8Array): boolean {
    return data.length <= this.limits().maxPayload - HEADER_ROOM;
  }

  /** A request or reply to send: as is when it fits, else offered in chunks. */
  frame(data: Uint8Array, what: string): Framed {
    if (this.fits(data)) return { data, release: () => undefined, sent: SENT };
    this.checkSize(data, what);
    this.admit(this.offered, data.length, `${what} (${data.length} bytes) cannot be offered now`);
    const offer = offerChunks(this.wire, data, this.limits().maxPayload - HEADER_ROOM, OFFER_TTL_MS);
    this.offered += data.length;
    const sent = offer.closed.then(() => {
      this.offered -= data.length;
    });
    return { data: EMPTY, chunked: offer.ref, release: offer.close, sent };
  }

  /** The bytes of a received request or reply: fetched from its sender when it came in chunks. */
  async unframe(data: Uint8Array, chunked: string | undefined, what: string, timeoutMs: number): Promise<Uint8Array> {
    if (!chunked) return data;
    const ref = parseChunkRef(chunked, what);
    const opts = { maxBytes: this.limits().maxMessageBytes, timeoutMs, what };
    // Past the bound: refused by fetchChunks before anything is read (a 500, not a busy 503).
    if (ref.size > opts.maxBytes) return fetchChunks(this.wire, chunked, opts);
    try {
      this.admit(this.receiving, ref.size, `${what} (${ref.size} bytes) cannot be received now`);
    } catch (err) {
      withdraw(this.wire, ref);
      throw err;
    }
    this.receiving += ref.size;
    try {
      return await fetchChunks(this.wire, chunked, opts);
    } finally {
      this.receiving -= ref.size;
    }
  }

  /** A received message that will not be read: its sender is told to let the chunks go. */
  discard(chunked: string | undefined): void {
    if (!chunked) return;
    const subject = chunked.split(' ')[0];
    if (subject) withdraw(this.wire, { subject });
  }

  /** Bytes of chunked messages held now: on offer, and being reassembled. */
  held(): { offered: number; receiving: number } {
    return { offered: this.offered, receiving: this.receiving };
  }

  /** Refuses, with a 503, `size` more bytes past the budget (unless nothing is held: one always goes). */
  private admit(held: number, size: number, what: string): void {
    const budget = this.limits().chunkedBytes;
    if (held === 0 || held + size <= budget) return;
    throw new UnavailableError({
      message:
        `${what}: this process already holds ${held} bytes of large messages, and BUS_CHUNKED_BYTES is ${budget}; ` +
        'try again shortly',
      retryAfterSeconds: BUS_RETRY_AFTER_S,
    });
  }

  /** Refuses, before anything is sent, a message larger than the bus carries at all. */
  checkSize(data: Uint8Array, what: string): void {
    const max = this.limits().maxMessageBytes;
    if (data.length > max)
      throw new BusPayloadError({
        message: `${what} is ${data.length} bytes, more than the ${max} a bus message may hold (BUS_MAX_MESSAGE_BYTES)`,
      });
  }

  /** Reads STORED_HEADER's value, checking the size against the bound before any byte is read. */
  storedName(header: string, what: string): string {
    const [name, size] = header.split(' ');
    if (!name || !Number.isSafeInteger(Number(size)))
      throw new BusPayloadError({ message: `${what}: malformed body reference` });
    const max = this.limits().maxMessageBytes;
    if (Number(size) > max)
      throw new BusPayloadError({ message: `${what} is ${size} bytes, more than the ${max} a bus message may hold` });
    return name;
  }
}

/** STORED_HEADER's value for a body of `size` bytes kept under `name`. */
export function storedRef(name: string, size: number): string {
  return `${name} ${size}`;
}
