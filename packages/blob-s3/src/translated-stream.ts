import { Readable } from 'node:stream';
import { byteChunks } from '@patchbay/platform';

/** Bytes to drop from the start of a stream, then bytes to pass on; the rest is not read. */
export interface Window {
  skip: number;
  take: number;
}

/**
 * `src` with its errors translated (a connection cut mid-download becomes the port's error, never
 * a raw SDK one), optionally cut to `window`. Destroying the result destroys `src`, which aborts the
 * HTTP response; so does reaching the end of the window.
 */
export function translatedStream(src: Readable, translate: (err: unknown) => unknown, window?: Window): Readable {
  return Readable.from(pass(src, translate, window), { objectMode: false });
}

async function* pass(src: Readable, translate: (err: unknown) => unknown, window?: Window): AsyncGenerator<Buffer> {
  let skip = window?.skip ?? 0;
  let take = window?.take ?? Infinity;
  try {
    for await (const chunk of byteChunks(src)) {
      let part = chunk;
      if (skip > 0) {
        const dropped = Math.min(skip, part.length);
        part = part.subarray(dropped);
        skip -= dropped;
      }
      if (part.length > take) part = part.subarray(0, take);
      take -= part.length;
      if (part.length > 0) yield part;
      if (take <= 0) return; // leaving the loop destroys src
    }
  } catch (err) {
    throw translate(err);
  }
}
