/**
 * Between Node's streams and the web streams fetch sends and openapi-fetch returns, for Node only
 * (import it by its path, like encrypted.ts: the package's index stays free of `node:stream`). Node's
 * fetch takes and gives Node's own web ReadableStream; the DOM typing openapi-fetch uses is another
 * declaration of the same class, so each direction is one cast.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** `src` as a request body fetch streams (with `rawBody`), never read whole. */
export function webBody(src: Readable): ReadableStream<Uint8Array> {
  // why: Node's web ReadableStream and the DOM one fetch is typed with are two typings of one class.
  return Readable.toWeb(src) as ReadableStream<Uint8Array>;
}

/** A streamed answer (`parseAs: 'stream'`) as a Node Readable; an answer without a body is an error. */
export function nodeReadable(body: ReadableStream<Uint8Array> | null): Readable {
  if (!body) throw new Error('the answer has no body to stream');
  // why: as above, the other way: Node's fetch gives Node's own web ReadableStream.
  return Readable.fromWeb(body as unknown as NodeReadableStream);
}
