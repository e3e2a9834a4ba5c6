/**
 * The body of a resumable upload, sent by us in one PUT to the session URI the library opened.
 *
 * Why not `File.createWriteStream`: when the body fails, the library destroys its upload stream
 * through duplexify, which drops the error (duplexify 4 `_destroy` forwards a bare `destroy()`), so
 * the resumable upload never aborts its PUT and the request hangs forever, holding a socket. Its
 * "simple" uploads have the same flaw in teeny-request. Sending the PUT ourselves, we abort it and
 * cancel the session at the first failure. GCS needs no Authorization header here: the session URI
 * is the credential.
 */
import http from 'node:http';
import https from 'node:https';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CRC32C } from '@google-cloud/storage';
import { byteChunks, type OutboundAgents } from '@patchbay/platform';
import { SourceFailure } from './source-failure';

export interface SessionResult {
  size: number;
  /** Base64 CRC32C of what was sent, to compare with the object GCS made. */
  crc32c: string;
  /** GCS's answer: 200/201 with the object's metadata, or an error status with its JSON error. */
  status: number;
  body: unknown;
}

/**
 * Streams `body` to `sessionUri` (`Content-Range: bytes 0-*\/*`: the whole object, length unknown,
 * as the library itself sends it). Rejects with a SourceFailure when the body fails first, or with
 * the transport error; an HTTP error answer resolves with its status. Never buffers the body.
 */
export async function putToSession(
  sessionUri: string,
  body: Readable,
  idleTimeoutMs: number,
  agents: OutboundAgents,
): Promise<SessionResult> {
  const url = new URL(sessionUri);
  // The session URI is the server's own answer (a Location header): it goes through the guard too.
  const req = (url.protocol === 'https:' ? https : http).request(url, {
    agent: url.protocol === 'https:' ? agents.https : agents.http,
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 0-*/*' },
  });
  let storageFailed = false;
  let sourceFailure: SourceFailure | undefined;
  req.once('error', () => {
    storageFailed = true;
  });
  req.setTimeout(idleTimeoutMs, () =>
    req.destroy(Object.assign(new Error(`no answer within ${idleTimeoutMs} ms`), { code: 'ETIMEDOUT' })),
  );
  body.once('error', (err) => {
    if (!storageFailed) sourceFailure ??= new SourceFailure(err);
  });
  body.once('close', () => {
    if (!storageFailed && !body.readableEnded)
      sourceFailure ??= new SourceFailure(new Error('the body stream closed before its end'));
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.once('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300) storageFailed = true; // GCS may refuse before the body is sent
      readText(res).then((text) => {
        if (status >= 300) req.destroy(); // stop sending a body nobody reads
        resolve({ status, text });
      }, reject);
    });
    req.once('error', reject);
  });
  answered.catch(() => undefined); // observed below

  let size = 0;
  const crc = new CRC32C();
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      crc.update(chunk);
      done(null, chunk);
    },
  });
  const [sent, response] = await Promise.allSettled([pipeline(body, counted, req), answered]);
  if (sourceFailure) throw sourceFailure;
  if (response.status === 'rejected') throw response.reason;
  const { status, text } = response.value;
  if (sent.status === 'rejected' && status < 300) throw sent.reason;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { size, crc32c: crc.toString(), status, body: parsed };
}

/** Cancels a session (GCS answers 499): nothing of it survives. Best effort. */
export async function cancelSession(sessionUri: string, agents: OutboundAgents): Promise<void> {
  const url = new URL(sessionUri);
  await new Promise<void>((resolve) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      method: 'DELETE',
      headers: { 'content-length': '0' },
    });
    req.setTimeout(5000, () => req.destroy());
    req.once('response', (res) => {
      res.resume();
      res.once('end', resolve);
      res.once('error', () => resolve());
    });
    req.once('error', () => resolve());
    req.end();
  });
}

async function readText(res: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of byteChunks(res)) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}
