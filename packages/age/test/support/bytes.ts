/** Plaintext to encrypt, and small stream helpers for the tests. */
import crypto from 'node:crypto';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The sizes the format's edges sit on: empty, one byte, around one chunk, three chunks. */
export const EDGE_SIZES = [0, 1, 65535, 65536, 65537, 3 * 65536];

export function randomBytes(size: number): Buffer {
  return crypto.randomBytes(size);
}

/** Feeds `bytes` in pieces of `piece` bytes (so a test controls how the input is cut). */
export function readableOf(bytes: Buffer, piece = 16 * 1024): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += piece) pieces.push(bytes.subarray(at, at + piece));
  return Readable.from(pieces, { objectMode: false });
}

/** Pipes `input` through `transform` and collects the output. */
export async function through(transform: Transform, input: Readable): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(input, transform, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out);
}

/**
 * Length and SHA-256 of some bytes: compare these rather than the buffers themselves (jest's
 * deep equality walks a buffer byte by byte, which takes seconds for a few megabytes).
 */
export function digest(bytes: Uint8Array): { length: number; sha256: string } {
  return { length: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}
