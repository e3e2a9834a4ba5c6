import { BusPayloadError } from './bus-errors';
import type { ChunkWire } from './chunk-wire';
import { fetchChunks, offerChunks } from './chunked-transfer';

/** Header of a request or reply whose bytes are offered in chunks (see chunked-transfer.ts). */
export const CHUNKED_HEADER = 'pb-chunked';
/** Header of an event or job whose bytes are kept in the body store: `<name> <size>`. */
export const STORED_HEADER = 'pb-stored';

/** Default of BUS_MAX_MESSAGE_BYTES: the largest message the bus carries at all, in chunks. */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

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
}

/** A message ready to send: its bytes, and the header that says where the real bytes are. */
export interface Framed {
  data: Uint8Array;
  /** CHUNKED_HEADER's value, for a message sent in chunks. */
  chunked?: string;
  /** Withdraws a chunk offer when the message could not be sent after all. */
  release(): void;
}

/** Where events and jobs too large for one message keep their bytes (the JetStream object store). */
export interface BodyStore {
  put(name: string, data: Uint8Array): Promise<void>;
  /** The body, or a BusPayloadError if it is gone. */
  get(name: string): Promise<Uint8Array>;
  delete(name: string): Promise<void>;
}

/**
 * The one policy both adapters follow for messages of any size, so no service has to think about
 * it: requests and replies larger than one message go in chunks over `wire`; events and jobs in
 * `bodies`, the message pointing to them; anything over `maxMessageBytes` is refused on the spot.
 */
export class LargeMessages {
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
    if (this.fits(data)) return { data, release: () => undefined };
    this.checkSize(data, what);
    const offer = offerChunks(this.wire, data, this.limits().maxPayload - HEADER_ROOM, OFFER_TTL_MS);
    return { data: EMPTY, chunked: offer.ref, release: offer.close };
  }

  /** The bytes of a received request or reply: fetched from its sender when it came in chunks. */
  async unframe(data: Uint8Array, chunked: string | undefined, what: string, timeoutMs: number): Promise<Uint8Array> {
    if (!chunked) return data;
    return fetchChunks(this.wire, chunked, { maxBytes: this.limits().maxMessageBytes, timeoutMs, what });
  }

  /** Refuses, before anything is sent, a message larger than the bus carries at all. */
  checkSize(data: Uint8Array, what: string): void {
    const max = this.limits().maxMessageBytes;
    if (data.length > max)
      throw new BusPayloadError(
        `${what} is ${data.length} bytes, more than the ${max} a bus message may hold (BUS_MAX_MESSAGE_BYTES)`,
      );
  }

  /** Reads STORED_HEADER's value, checking the size against the bound before any byte is read. */
  storedName(header: string, what: string): string {
    const [name, size] = header.split(' ');
    if (!name || !Number.isSafeInteger(Number(size))) throw new BusPayloadError(`${what}: malformed body reference`);
    const max = this.limits().maxMessageBytes;
    if (Number(size) > max)
      throw new BusPayloadError(`${what} is ${size} bytes, more than the ${max} a bus message may hold`);
    return name;
  }
}

/** STORED_HEADER's value for a body of `size` bytes kept under `name`. */
export function storedRef(name: string, size: number): string {
  return `${name} ${size}`;
}
