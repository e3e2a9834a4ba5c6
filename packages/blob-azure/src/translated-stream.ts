import { Readable } from 'node:stream';
import { byteChunks } from '@patchbay/platform';

/**
 * `src` with its errors translated (a connection cut mid-download becomes the port's error, never
 * a raw SDK one). Destroying the result destroys `src`, which aborts the HTTP response.
 */
export function translatedStream(src: NodeJS.ReadableStream, translate: (err: unknown) => unknown): Readable {
  return Readable.from(pass(src, translate), { objectMode: false });
}

async function* pass(src: NodeJS.ReadableStream, translate: (err: unknown) => unknown): AsyncGenerator<Buffer> {
  try {
    yield* byteChunks(src);
  } catch (err) {
    throw translate(err);
  }
}
