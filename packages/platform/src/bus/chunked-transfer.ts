import { TimeoutError, UnavailableError } from '@patchbay/contracts';
import { BUS_RETRY_AFTER_S, BusPayloadError, NoRespondersError } from './bus-errors';
import type { ChunkWire } from './chunk-wire';
import { errorMessage } from '../basics/error-fields';

/**
 * Carrying one message larger than the medium's max_payload: the sender keeps the bytes and offers
 * them, chunk by chunk, on a private subject (`offerChunks`); the message itself travels empty with
 * a header naming that subject, the size, the chunk count and the chunk size; the receiver asks for
 * the chunks (`fetchChunks`), at most CHUNK_WINDOW at a time, and places each where it belongs.
 *
 * Flow is the receiver's: nothing is sent that it did not ask for, so one transfer never has more
 * than CHUNK_WINDOW chunks on their way, whatever its size; the size is checked before a byte is
 * read. A chunk that does not come in CHUNK_WAIT_MS is asked for again (its request or its answer
 * was dropped), up to CHUNK_ATTEMPTS times within the transfer's deadline; a sender that is gone is
 * a no-responders at once. Either way the receiver fails with a 503 and Retry-After, never a 500:
 * the bytes were fine, the medium or the sender was not. When the receiver is done, or gives up,
 * it says so (`done`) and the sender lets the bytes go at once; an offer nobody asks anything of
 * for OFFER_IDLE_MS, or open for its whole TTL, is let go as well (its receiver died).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** How long one chunk may take to arrive once asked for, before it is asked for again. */
const CHUNK_WAIT_MS = 5000;
/** Times one chunk is asked for before the transfer fails (within its deadline). */
const CHUNK_ATTEMPTS = 3;
/** Chunks one transfer asks for at once: all a sender has on its way to one receiver. */
export const CHUNK_WINDOW = 4;
/** An offer nobody has asked anything of for this long is withdrawn: its receiver is gone. */
export const OFFER_IDLE_MS = 20_000;
/** What a receiver tells the offer's subject when it needs no more chunks. */
const DONE = 'done';

/** What the header of a chunked message says: `<subject> <size> <chunks> <chunk bytes>`. */
export interface ChunkRef {
  subject: string;
  size: number;
  chunks: number;
  /** Absent from senders before the window: their chunks are fetched one after another. */
  chunkBytes?: number;
}

export interface Offer {
  /** The header value the message carries to its receiver. */
  ref: string;
  /** Withdraws the offer now (the message was never delivered, or its answer came). */
  close(): void;
  /** Settles once the offer is withdrawn and its bytes let go, however that came about. */
  closed: Promise<void>;
}

/**
 * Offers `data` in chunks of `chunkBytes` until the receiver says it is done, nobody asked for
 * anything for OFFER_IDLE_MS, or `ttlMs` has passed.
 */
export function offerChunks(wire: ChunkWire, data: Uint8Array, chunkBytes: number, ttlMs: number): Offer {
  const chunks = Math.ceil(data.length / chunkBytes);
  let settle!: () => void;
  const closed = new Promise<void>((resolve) => (settle = resolve));
  let open = true;
  // `close` and `idle` are used only once a peer asks, or when a timer fires: both after the lines below.
  const offer = wire.offer((request) => {
    const text = decoder.decode(request);
    if (text === DONE) {
      close();
      return EMPTY;
    }
    const i = Number(text);
    if (!Number.isInteger(i) || i < 0 || i >= chunks) return EMPTY;
    idle.refresh();
    return data.subarray(i * chunkBytes, Math.min(data.length, (i + 1) * chunkBytes));
  });
  const ttl = setTimeout(close, ttlMs).unref();
  const idle = setTimeout(close, Math.min(OFFER_IDLE_MS, ttlMs)).unref();
  function close(): void {
    if (!open) return;
    open = false;
    clearTimeout(ttl);
    clearTimeout(idle);
    offer.close();
    settle();
  }
  return { ref: `${offer.subject} ${data.length} ${chunks} ${chunkBytes}`, close, closed };
}

export interface FetchOptions {
  /** The largest message accepted: a larger announced size fails before anything is fetched. */
  maxBytes: number;
  /** The whole transfer's deadline. */
  timeoutMs: number;
  /** What is being fetched, for the error message (`reply of svc.records.calls.list`). */
  what: string;
  /** How long one chunk may take before it is asked for again (default CHUNK_WAIT_MS). */
  chunkWaitMs?: number;
}

/**
 * Fetches and reassembles the message `ref` announces. A wrong byte count is a BusPayloadError at
 * once; a chunk that does not come is a 503 (UnavailableError with Retry-After). The sender is
 * told `done` in every case, so it lets the bytes go without waiting for its timers.
 */
export async function fetchChunks(wire: ChunkWire, ref: string, opts: FetchOptions): Promise<Uint8Array> {
  const r = parseChunkRef(ref, opts.what);
  if (r.size > opts.maxBytes) {
    withdraw(wire, r);
    throw new BusPayloadError({
      message:
        `${opts.what} is ${r.size} bytes, more than the ${opts.maxBytes} a bus message may hold ` +
        '(BUS_MAX_MESSAGE_BYTES)',
    });
  }
  const out = new Uint8Array(r.size);
  const deadline = Date.now() + opts.timeoutMs;
  try {
    if (r.chunkBytes === undefined) await fetchInTurn(wire, r, out, deadline, opts);
    else await fetchWindowed(wire, r, r.chunkBytes, out, deadline, opts);
  } finally {
    withdraw(wire, r);
  }
  return out;
}

/** Tells the sender of `ref` that no more chunks will be asked for. */
export function withdraw(wire: ChunkWire, ref: Pick<ChunkRef, 'subject'>): void {
  wire.tell(ref.subject, encoder.encode(DONE));
}

/** Up to CHUNK_WINDOW chunks asked for at once, each written at its own offset. */
async function fetchWindowed(
  wire: ChunkWire,
  r: ChunkRef,
  chunkBytes: number,
  out: Uint8Array,
  deadline: number,
  opts: FetchOptions,
): Promise<void> {
  if (Math.ceil(r.size / chunkBytes) !== r.chunks)
    throw new BusPayloadError({ message: `${opts.what}: malformed chunk header` });
  let next = 0;
  let failed = false;
  const lane = async () => {
    try {
      for (let i = next++; i < r.chunks && !failed; i = next++) {
        const chunk = await fetchOne(wire, r, i, deadline, opts);
        const at = i * chunkBytes;
        if (chunk.length !== Math.min(chunkBytes, r.size - at))
          throw new BusPayloadError({
            message: `${opts.what}: chunk ${i + 1} of ${r.chunks} does not fit the announced size`,
          });
        out.set(chunk, at);
      }
    } catch (err) {
      failed = true;
      throw err;
    }
  };
  const lanes = Array.from({ length: Math.min(CHUNK_WINDOW, r.chunks) }, lane);
  // Every lane settles before the sender is told `done`; the first failure is the one reported.
  const results = await Promise.allSettled(lanes);
  const first = results.find((x): x is PromiseRejectedResult => x.status === 'rejected');
  if (first) throw first.reason;
}

/** One chunk after another, for a sender that does not say its chunk size. */
async function fetchInTurn(wire: ChunkWire, r: ChunkRef, out: Uint8Array, deadline: number, opts: FetchOptions) {
  let at = 0;
  for (let i = 0; i < r.chunks; i++) {
    const chunk = await fetchOne(wire, r, i, deadline, opts);
    if (chunk.length === 0 || at + chunk.length > r.size)
      throw new BusPayloadError({
        message: `${opts.what}: chunk ${i + 1} of ${r.chunks} does not fit the announced size`,
      });
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== r.size)
    throw new BusPayloadError({ message: `${opts.what}: ${at} of the announced ${r.size} bytes arrived` });
}

/** Chunk `i`, asked for again when it does not come; a 503 when it cannot be had in time. */
async function fetchOne(
  wire: ChunkWire,
  r: ChunkRef,
  i: number,
  deadline: number,
  opts: FetchOptions,
): Promise<Uint8Array> {
  const which = `${opts.what}: chunk ${i + 1} of ${r.chunks}`;
  for (let attempt = 1; ; attempt++) {
    const left = deadline - Date.now();
    if (left <= 0) throw lost(`${which} did not arrive within ${opts.timeoutMs} ms`);
    try {
      return await wire.ask(r.subject, encoder.encode(String(i)), Math.min(left, opts.chunkWaitMs ?? CHUNK_WAIT_MS));
    } catch (err) {
      if (err instanceof NoRespondersError) throw lost(`${which} is gone: its sender went away or withdrew it`, err);
      if (attempt >= CHUNK_ATTEMPTS || !(err instanceof TimeoutError))
        throw lost(`${which} was lost ${attempt} times (${errorMessage(err)})`, err);
    }
  }
}

const lost = (message: string, cause?: unknown) =>
  new UnavailableError({ message: `${message}; try again shortly`, cause, retryAfterSeconds: BUS_RETRY_AFTER_S });

/** Reads a CHUNKED_HEADER value; a malformed one is a BusPayloadError. */
export function parseChunkRef(ref: string, what: string): ChunkRef {
  const [subject, size, chunks, chunkBytes] = ref.split(' ');
  const r: ChunkRef = { subject, size: Number(size), chunks: Number(chunks) };
  if (chunkBytes !== undefined) r.chunkBytes = Number(chunkBytes);
  const whole = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n >= 1);
  if (!subject || !whole(r.size) || !whole(r.chunks) || !whole(r.chunkBytes))
    throw new BusPayloadError({ message: `${what}: malformed chunk header` });
  return r;
}
