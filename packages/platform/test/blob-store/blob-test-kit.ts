/** Test helpers for blob stores: deterministic content generated on the fly, hashing, failing sources. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const CHUNK = 64 * 1024;

/** `size` pseudo-random bytes (xorshift32 from `seed`), produced chunk by chunk, never held whole. */
export function* generatedChunks(size: number, seed: number, chunk = CHUNK): Generator<Buffer> {
  let x = seed >>> 0 || 1;
  for (let offset = 0; offset < size; offset += chunk) {
    const b = Buffer.allocUnsafe(Math.min(chunk, size - offset));
    for (let i = 0; i < b.length; i += 1) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      b[i] = x & 0xff;
    }
    yield b;
  }
}

/** A fresh stream of the generated content and its sha256, computed without buffering it. */
export function generated(size: number, seed: number): { stream: () => Readable; sha256: string } {
  const h = createHash('sha256');
  for (const b of generatedChunks(size, seed)) h.update(b);
  return { stream: () => Readable.from(generatedChunks(size, seed)), sha256: h.digest('hex') };
}

/** The same content, but yielding to the event loop between chunks so others can run mid-upload. */
export function slowStream(size: number, seed: number): Readable {
  return Readable.from(
    (async function* () {
      for (const b of generatedChunks(size, seed, 16 * 1024)) {
        await new Promise((r) => setTimeout(r, 1)); // the pace of the slow source itself
        yield b;
      }
    })(),
  );
}

/** Yields `goodBytes` of content and then fails, like a client that disconnects mid-upload. */
export function failingStream(goodBytes: number, message = 'source failed'): Readable {
  return Readable.from(
    (async function* () {
      yield* generatedChunks(goodBytes, 7);
      await new Promise((r) => setTimeout(r, 5)); // the good bytes are on their way before the failure
      throw new Error(message);
    })(),
  );
}

export async function sha256Of(stream: Readable): Promise<string> {
  const h = createHash('sha256');
  await pipeline(stream, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) h.update(chunk);
  });
  return h.digest('hex');
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  await pipeline(stream, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) parts.push(chunk);
  });
  return Buffer.concat(parts);
}

export function bufferStream(b: Buffer | string): Readable {
  return Readable.from(b.length === 0 ? [] : [Buffer.from(b)]);
}

export function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}
