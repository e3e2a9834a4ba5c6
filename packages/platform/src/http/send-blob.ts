import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { RangeNotSatisfiableError } from '@patchbay/contracts';
import type { BlobReader, BlobStore } from '../blob-store/port';
import { decideRange } from './range';
import { notModified } from './conditional';

/** What to send of one stored object. */
export interface BlobReply {
  key: string;
  size: number;
  /** Sent exactly as given (already checked: see contracts' safeContentType). */
  contentType: string;
  /** HTTP date of when the bytes last changed: Last-Modified, and what If-Range is compared with. */
  lastModified: string;
  /**
   * A strong ETag for these exact bytes (conditional.ts): sent, and If-None-Match / If-Range compared
   * with it. Left out where the bytes may differ for the same tag (a copy made again).
   */
  etag?: string;
  /** Whether `Range` is honoured (false: the whole object with 200, e.g. a copy made just now). */
  ranges: boolean;
  /** More headers (Cache-Control, Content-Disposition, CORS). */
  headers?: Record<string, string>;
  /**
   * How long the store may keep the object open for the next small read (ms; see BlobStore.openReader).
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
const giveBack = (buf: Buffer): void => {
  if (pool.length < POOL_MAX) pool.push(buf);
};

/**
 * Sends a blob the way the public file server does (docs/interface-notes.md, File server and
 * ranges): `Range: bytes=a-b` → 206 with Content-Range; an unsatisfiable range →
 * RangeNotSatisfiableError (416) after setting `Content-Range: bytes *\/size`; several ranges, a
 * malformed header or an If-Range that does not match Last-Modified → the whole object with 200.
 * HEAD sends the headers only. The bytes stream from the store (the range is read by the store, not
 * skipped here). Used by the file server and the media plane's playback. Resolves with the bytes
 * promised in Content-Length (0 for HEAD and an X-Accel-Redirect answer).
 */
export async function sendBlob(
  req: IncomingMessage,
  res: ServerResponse,
  blobs: BlobStore,
  r: BlobReply,
): Promise<number> {
  // Names and values in one flat list, given to writeHead at once (setHeader per header costs more).
  const headers: string[] = [];
  for (const [name, value] of Object.entries(r.headers ?? {})) headers.push(name, value);
  if (r.etag) headers.push('ETag', r.etag);
  // Only where a tag vouches for the bytes (never a copy made again, nor the media plane's playback).
  if (r.etag && notModified(req.method, req.headers, r.etag, r.lastModified)) {
    // 304: the validators and caching headers of the 200, no body and no Content-* of it.
    res.writeHead(304, [...headers, 'Last-Modified', r.lastModified]);
    res.end();
    return 0;
  }
  headers.push('Content-Type', r.contentType, 'Last-Modified', r.lastModified);
  const ifRange = req.headers['if-range'];
  const decision = r.ranges
    ? decideRange(r.size, req.headers.range, typeof ifRange === 'string' ? ifRange : undefined, r.lastModified, r.etag)
    : { kind: 'full' as const };
  if (decision.kind === 'unsatisfiable') unsatisfiable(res, headers, r.size);
  if (r.accelRedirect && req.method === 'GET' && r.ranges) {
    // No Accept-Ranges: nginx adds its own to the file it serves. An explicit empty body: without
    // Content-Length a reply whose headers went first is chunked, which nginx must read to its end.
    res.writeHead(200, [...headers, 'X-Accel-Redirect', r.accelRedirect, 'Content-Length', '0']);
    res.end();
    return 0;
  }
  const range = decision.kind === 'partial' ? { start: decision.start, end: decision.end } : undefined;
  const start = range ? range.start : 0;
  const length = range ? range.end - range.start + 1 : r.size;
  const common = headers.length; // what a 416 also carries
  headers.push('Accept-Ranges', 'bytes', 'Content-Length', String(length));
  if (range) headers.push('Content-Range', `bytes ${range.start}-${range.end}/${r.size}`);
  const status = range ? 206 : 200;
  if (req.method === 'HEAD' || r.size === 0) {
    res.writeHead(status, headers);
    res.end();
    return 0;
  }
  const reader = await blobs.openReader?.(r.key, { keepOpenMs: length <= CHUNK ? r.keepOpenMs : 0, size: r.size });
  if (!reader) {
    const body = await blobs.get(r.key, range);
    res.writeHead(status, headers);
    await pipeline(body, res);
    return length;
  }
  try {
    // Replaced since we were told its size: what the headers would promise cannot be sent.
    if (reader.size !== r.size) unsatisfiable(res, headers.slice(0, common), r.size);
    const head = () => res.writeHead(status, headers);
    if (length <= CHUNK) await sendOne(res, head, reader, start, length);
    else await sendChunks(res, head, reader, start, length);
  } finally {
    reader.close();
  }
  return length;
}

/** The 416: the reply's headers and `Content-Range: bytes *\/size`, left for the error handler to send. */
function unsatisfiable(res: ServerResponse, headers: string[], size: number): never {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Range', `bytes */${size}`);
  throw new RangeNotSatisfiableError({ size });
}

/**
 * One read into a pooled buffer, one write; the buffer goes back to the pool once the socket has it.
 * From a reader that holds the bytes (a block cache), its buffers are written as they are. `head`
 * writes the status and headers: only once the bytes are in hand, so a failed read can still be
 * answered with an error.
 */
async function sendOne(
  res: ServerResponse,
  head: () => void,
  reader: BlobReader,
  start: number,
  length: number,
): Promise<void> {
  if (reader.slices) {
    const parts = await reader.slices(start, length);
    if (parts.reduce((n, p) => n + p.length, 0) !== length) throw new Error(`blob ended before ${length} bytes`);
    head();
    if (parts.length > 1) res.cork(); // one writev for all of them
    for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
    res.end(parts[parts.length - 1]);
    return;
  }
  const buf = take();
  let n: number;
  try {
    n = await reader.read(buf, start, length);
  } catch (err) {
    giveBack(buf);
    throw err;
  }
  if (n !== length) {
    giveBack(buf);
    throw new Error(`blob ended after ${n} of ${length} bytes`);
  }
  head();
  res.end(buf.subarray(0, n), () => giveBack(buf));
}

/** Resolves once the socket has `chunk` (the buffer may be reused); rejects if the client went away first. */
function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const gone = () => reject(new Error('the client closed the connection'));
    res.once('close', gone);
    res.write(chunk, (err) => {
      res.off('close', gone);
      if (err) reject(err);
      else resolve();
    });
  });
}

/**
 * A long reply through two pooled buffers: the next chunk is read while the last is written. On a
 * failure or a client gone mid-way the buffers are left to the garbage collector (the socket may
 * still hold one), never put back in the pool.
 */
async function sendChunks(
  res: ServerResponse,
  head: () => void,
  reader: BlobReader,
  start: number,
  length: number,
): Promise<void> {
  const bufs = [take(), take()];
  const end = start + length;
  let written: Promise<void> = Promise.resolve();
  for (let pos = start, i = 0; pos < end; i ^= 1) {
    const want = Math.min(CHUNK, end - pos);
    const n = await reader.read(bufs[i], pos, want);
    await written;
    if (n !== want) throw new Error(`blob ended after ${pos - start + n} of ${length} bytes`);
    if (pos === start) head(); // the first chunk is in hand: from here on a failure can only cut the reply short
    written = write(res, bufs[i].subarray(0, n));
    written.catch(() => undefined); // awaited next round; a read failing first must not leave it unhandled
    pos += n;
  }
  await written;
  res.end();
  bufs.forEach(giveBack);
}
