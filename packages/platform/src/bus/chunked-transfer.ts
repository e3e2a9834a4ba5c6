import { BusPayloadError } from './bus-errors';
import type { ChunkWire } from './chunk-wire';
import { errorMessage } from '../runtime/error-fields';

/**
 * Carrying one message larger than the medium's max_payload: the sender keeps the bytes and offers
 * them, chunk by chunk, on a private subject (`offerChunks`); the message itself travels empty with
 * a header naming that subject, the size and the chunk count; the receiver asks for each chunk in
 * turn (`fetchChunks`) and reassembles. Pulling keeps the flow controlled by the receiver (nothing
 * is pushed that it did not ask for), checks the size before a byte is read, and turns a sender
 * that went away into an immediate no-responders, not a wait.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** How long one chunk may take to arrive once asked for (within the transfer's own deadline). */
const CHUNK_WAIT_MS = 5000;

/** What the header of a chunked message says: `<subject> <size> <chunks>`. */
interface ChunkRef {
  subject: string;
  size: number;
  chunks: number;
}

export interface Offer {
  /** The header value the message carries to its receiver. */
  ref: string;
  /** Withdraws the offer now (the message was never delivered). */
  close(): void;
}

/**
 * Offers `data` in chunks of `chunkBytes` until every chunk has been asked for once, or `ttlMs`
 * has passed (the receiver gave up or never came): then the bytes are let go.
 */
export function offerChunks(wire: ChunkWire, data: Uint8Array, chunkBytes: number, ttlMs: number): Offer {
  const chunks = Math.ceil(data.length / chunkBytes);
  const served = new Set<number>();
  // `close` runs only once a peer asks, or when the timer fires: both after the lines below.
  const offer = wire.offer((request) => {
    const i = Number(decoder.decode(request));
    if (!Number.isInteger(i) || i < 0 || i >= chunks) return new Uint8Array(0);
    served.add(i);
    if (served.size === chunks) close();
    return data.subarray(i * chunkBytes, Math.min(data.length, (i + 1) * chunkBytes));
  });
  const timer = setTimeout(close, ttlMs).unref();
  function close(): void {
    clearTimeout(timer);
    offer.close();
  }
  return { ref: `${offer.subject} ${data.length} ${chunks}`, close };
}

export interface FetchOptions {
  /** The largest message accepted: a larger announced size fails before anything is fetched. */
  maxBytes: number;
  /** The whole transfer's deadline. */
  timeoutMs: number;
  /** What is being fetched, for the error message (`reply of svc.records.calls.list`). */
  what: string;
}

/** Fetches and reassembles the message `ref` announces; any shortfall is a BusPayloadError at once. */
export async function fetchChunks(wire: ChunkWire, ref: string, opts: FetchOptions): Promise<Uint8Array> {
  const r = parseRef(ref, opts.what);
  if (r.size > opts.maxBytes)
    throw new BusPayloadError(
      `${opts.what} is ${r.size} bytes, more than the ${opts.maxBytes} a bus message may hold (BUS_MAX_MESSAGE_BYTES)`,
    );
  const out = new Uint8Array(r.size);
  const deadline = Date.now() + opts.timeoutMs;
  let at = 0;
  for (let i = 0; i < r.chunks; i++) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new BusPayloadError(`${opts.what}: only ${i} of ${r.chunks} chunks arrived within ${opts.timeoutMs} ms`);
    let chunk: Uint8Array;
    try {
      chunk = await wire.ask(r.subject, encoder.encode(String(i)), Math.min(left, CHUNK_WAIT_MS));
    } catch (err) {
      throw new BusPayloadError(
        `${opts.what}: chunk ${i + 1} of ${r.chunks} was lost (${errorMessage(err)}); the sender is gone`,
        { cause: err },
      );
    }
    if (chunk.length === 0 || at + chunk.length > r.size)
      throw new BusPayloadError(`${opts.what}: chunk ${i + 1} of ${r.chunks} does not fit the announced size`);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== r.size) throw new BusPayloadError(`${opts.what}: ${at} of the announced ${r.size} bytes arrived`);
  return out;
}

function parseRef(ref: string, what: string): ChunkRef {
  const [subject, size, chunks] = ref.split(' ');
  const r = { subject, size: Number(size), chunks: Number(chunks) };
  if (!subject || !Number.isSafeInteger(r.size) || !Number.isSafeInteger(r.chunks) || r.size < 1 || r.chunks < 1)
    throw new BusPayloadError(`${what}: malformed chunk header`);
  return r;
}
