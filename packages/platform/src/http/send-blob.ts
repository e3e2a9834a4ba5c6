import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { RangeNotSatisfiableError } from '@patchbay/contracts';
import type { BlobReader, BlobStore } from '../blob-store/port';
import { decideRange } from './range';

/** What to send of one stored object. */
export interface BlobReply {
  key: string;
  size: number;
  /** Sent exactly as given (already checked: see contracts' safeContentType). */
  contentType: string;
  /** HTTP date of when the bytes last changed: Last-Modified, and what If-Range is compared with. */
  lastModified: string;
  /** Whether `Range` is honoured (false: the whole object with 200, e.g. a copy made just now). */
  ranges: boolean;
  /** More headers (Cache-Control, Content-Disposition, CORS). */
  headers?: Record<string, string>;
  /**
   * How long the store may keep the object open for the next small read (ms; see BlobStore.read).
   * Only for a caller that hears of changes made elsewhere and calls `forgetOpen` (the file server).
   */
  keepOpenMs?: number;
  /**
   * An nginx edge serves the bytes: a GET that may take a range is answered with these headers and
   * `X-Accel-Redirect: <this URI>` and no body; nginx sends the file (sendfile), applying Range and
   * If-Range itself against the Last-Modified passed on (docs/operations.md has its location).
   * Unsatisfiable ranges and HEAD are still answered here.
   */
  accelRedirect?: string;
}

/**
 * The unit of a reply read through a BlobReader: a reply of at most this many bytes is one read into
 * a reused buffer and one write; a longer one goes through two such buffers, each read while the
 * other is written (buffers reused instead of a fresh one per chunk: no page faults, no garbage).
 */
export const CHUNK = 512 * 1024;
const pool: Buffer[] = [];
const POOL_MAX = 32;
const take = (): Buffer => pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
const giveBack = (buf: Buffer): void => { if (pool.length < POOL_MAX) pool.push(buf); };

/**
 * Sends a blob the way the public file server does (interface.md rules 4–6): `Range: bytes=a-b` →
 * 206 with Content-Range; an unsatisfiable range → RangeNotSatisfiableError (416) after setting
 * `Content-Range: bytes *\/size`; several ranges, a malformed header or an If-Range that does not
 * match Last-Modified → the whole object with 200. HEAD sends the headers only. The bytes stream
 * from the store (the range is read by the store, not skipped here). Used by the file server and
 * the media plane's playback.
 */
export async function sendBlob(req: IncomingMessage, res: ServerResponse, blobs: BlobStore, r: BlobReply): Promise<void> {
  res.setHeader('Accept-Ranges', 'bytes');
  for (const [name, value] of Object.entries(r.headers ?? {})) res.setHeader(name, value);
  res.setHeader('Content-Type', r.contentType);
  res.setHeader('Last-Modified', r.lastModified);
  const ifRange = req.headers['if-range'];
  const decision = r.ranges ? decideRange(r.size, req.headers.range, typeof ifRange === 'string' ? ifRange : undefined, r.lastModified) : { kind: 'full' as const };
  if (decision.kind === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${r.size}`);
    throw new RangeNotSatisfiableError(r.size);
  }
  if (r.accelRedirect && req.method === 'GET' && r.ranges) {
    res.statusCode = 200;
    res.removeHeader('Accept-Ranges'); // nginx adds its own to the file it serves
    res.setHeader('X-Accel-Redirect', r.accelRedirect);
    res.end();
    return;
  }
  const range = decision.kind === 'partial' ? { start: decision.start, end: decision.end } : undefined;
  res.statusCode = range ? 206 : 200;
  if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${r.size}`);
  res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : r.size));
  if (req.method === 'HEAD' || r.size === 0) { res.end(); return; }
  const start = range ? range.start : 0;
  const length = range ? range.end - range.start + 1 : r.size;
  const reader = await blobs.openReader?.(r.key, { keepOpenMs: length <= CHUNK ? r.keepOpenMs : 0, size: r.size });
  if (!reader) {
    await pipeline(await blobs.get(r.key, range), res);
    return;
  }
  try {
    // Replaced since we were told its size: what was promised in the headers cannot be sent.
    if (reader.size !== r.size) throw new RangeNotSatisfiableError(r.size);
    if (length <= CHUNK) await sendOne(res, reader, start, length);
    else await sendChunks(res, reader, start, length);
  } finally {
    reader.close();
  }
}

/** One read into a pooled buffer, one write; the buffer goes back to the pool once the socket has it. */
async function sendOne(res: ServerResponse, reader: BlobReader, start: number, length: number): Promise<void> {
  const buf = take();
  let n: number;
  try {
    n = await reader.read(buf, start, length);
  } catch (err) {
    giveBack(buf);
    throw err;
  }
  if (n !== length) { giveBack(buf); throw new Error(`blob ended after ${n} of ${length} bytes`); }
  res.end(buf.subarray(0, n), () => giveBack(buf));
}

/** Resolves once the socket has `chunk` (the buffer may be reused); rejects if the client went away first. */
function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const gone = () => reject(new Error('the client closed the connection'));
    res.once('close', gone);
    res.write(chunk, (err) => {
      res.off('close', gone);
      if (err) reject(err); else resolve();
    });
  });
}

/**
 * A long reply through two pooled buffers: the next chunk is read while the last is written. On a
 * failure or a client gone mid-way the buffers are left to the garbage collector (the socket may
 * still hold one), never put back in the pool.
 */
async function sendChunks(res: ServerResponse, reader: BlobReader, start: number, length: number): Promise<void> {
  const bufs = [take(), take()];
  const end = start + length;
  let written: Promise<void> = Promise.resolve();
  for (let pos = start, i = 0; pos < end; i ^= 1) {
    const want = Math.min(CHUNK, end - pos);
    const n = await reader.read(bufs[i], pos, want);
    await written;
    if (n !== want) throw new Error(`blob ended after ${pos - start + n} of ${length} bytes`);
    written = write(res, bufs[i].subarray(0, n));
    written.catch(() => undefined); // awaited next round; a read failing first must not leave it unhandled
    pos += n;
  }
  await written;
  res.end();
  bufs.forEach(giveBack);
}
