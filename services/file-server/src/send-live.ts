import type { ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { LiveReader } from './live-reader';

/**
 * A transcoded copy sent as the transcoder makes it (decisions §53): 200 whatever `Range` asked, no
 * Content-Length (chunked), `Accept-Ranges: none` and no ETag, since the bytes are not stored yet;
 * once the copy is stored the same URL answers ranges and validators. A run that fails half-way
 * cuts the connection (the chunked body never ends), so no client takes a part for the whole.
 * Resolves with the bytes sent.
 */
export async function sendLive(
  res: ServerResponse,
  stream: LiveReader,
  headers: Record<string, string>,
): Promise<number> {
  res.writeHead(200, { ...headers, 'Accept-Ranges': 'none' });
  let sent = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sent += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(stream, counted, res);
  return sent;
}
