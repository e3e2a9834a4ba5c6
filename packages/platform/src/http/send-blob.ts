import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { RangeNotSatisfiableError } from '@patchbay/contracts';
import type { BlobStore } from '../blob-store/port';
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
 * Replies of at most this many bytes are read in one positioned read into a pooled buffer and sent
 * with one write, when the store can (BlobStore.read); larger ones stream.
 */
export const SMALL_REPLY = 256 * 1024;
const pool: Buffer[] = [];
const POOL_MAX = 64;

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
  const length = range ? range.end - range.start + 1 : r.size;
  if (blobs.read && length <= SMALL_REPLY) {
    await sendSmall(res, blobs.read.bind(blobs), r, range ?? { start: 0, end: r.size - 1 }, length);
    return;
  }
  await pipeline(await blobs.get(r.key, range), res);
}

/** One read into a pooled buffer, one write; the buffer goes back to the pool once the socket has it. */
async function sendSmall(res: ServerResponse, read: NonNullable<BlobStore['read']>, r: BlobReply, range: { start: number; end: number }, length: number): Promise<void> {
  const buf = pool.pop() ?? Buffer.allocUnsafeSlow(SMALL_REPLY);
  let n: number;
  try {
    n = await read(r.key, range, buf, { keepOpenMs: r.keepOpenMs, size: r.size });
  } catch (err) {
    pool.push(buf);
    throw err;
  }
  // The object is shorter than the size we were told (replaced meanwhile): never send a short body.
  if (n !== length) { pool.push(buf); throw new RangeNotSatisfiableError(r.size); }
  res.end(buf.subarray(0, n), () => { if (pool.length < POOL_MAX) pool.push(buf); });
}
