import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { UnsupportedMediaTypeError } from '@patchbay/contracts';

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
  zstd: () => zlib.createZstdDecompress(),
};

/** The request's Content-Encoding, lower-cased; '' when absent or `identity`. */
export function contentCoding(req: IncomingMessage): string {
  const coding = String(req.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  return coding === 'identity' ? '' : coding;
}

/**
 * A streamed request body as its Content-Encoding says to read it: as is without one; gzip,
 * deflate, br and zstd decompressed while it streams (a body that does not decompress fails the stream
 * with zlib's error, which the error handler answers with a 400 naming Content-Encoding); any other
 * coding, or several, is a 415 before a byte is read. Limits downstream count decoded bytes.
 */
export function decodedBody(req: IncomingMessage): Readable {
  const decoder = decoderFor(req);
  // pipeline destroys the decoder with the request's error too, so readers see either failure.
  return decoder ? pipeline(req, decoder(), () => undefined) : req;
}

/** The decoder the body needs (null: none); 415 for a coding that is not supported. Reads nothing. */
export function decoderFor(req: IncomingMessage): (() => Transform) | null {
  const coding = contentCoding(req);
  if (!coding) return null;
  const decoder = DECODERS[coding];
  if (!decoder)
    throw new UnsupportedMediaTypeError({
      message: `Content-Encoding ${coding} is not supported (use gzip, deflate, br or zstd)`,
    });
  return decoder;
}
