/**
 * Helpers for the media plane's API tests: the operator's calls, endpoints of each type, a
 * published file to use as a greeting, and a local HTTP receiver for Voicemail callbacks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API, adminAuth, http as api, type TestPartner } from '../harness/api';
import { tone } from './media';
import { uploadRaw } from './storage';
import type { ApiJson } from './api-json';

/** `POST /media/recordings` as the operator (or as `as`), with `body` as the raw recording. */
export function record(
  query: Record<string, string>,
  body: Buffer = tone('wav', 1),
  opts: { as?: [string, string]; type?: string } = {},
) {
  return api()
    .post(`${API}/media/recordings?${new URLSearchParams(query)}`)
    .set(...(opts.as ?? adminAuth()))
    .set('Content-Type', opts.type ?? 'audio/wav')
    .send(body);
}

/** `GET /media/playback` as the operator, the bytes buffered. */
export function play(query: Record<string, string>, headers: Record<string, string> = {}) {
  return api()
    .get(`${API}/media/playback?${new URLSearchParams(query)}`)
    .set(...adminAuth())
    .set(headers)
    .buffer(true)
    .parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });
}

/** Creates an endpoint of `type` for `p` and returns it (fails the test unless 200). */
export async function endpoint(
  p: TestPartner,
  type: string,
  properties: Record<string, unknown> = {},
): Promise<ApiJson> {
  const body =
    type === 'third_party'
      ? {
          type,
          addresses: [
            {
              ip: `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1`,
              port: 5000 + Math.floor(Math.random() * 50000),
            },
          ],
        }
      : { type, properties };
  const res = await api()
    .post(`${API}/endpoints`)
    .set(...p.auth)
    .send(body);
  if (res.status !== 200) throw new Error(`endpoint create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A file uploaded into `containerSid` (default: the partner's default container); `publish` as given. */
export async function storedFile(
  p: TestPartner,
  opts: { publish?: string; containerSid?: string } = {},
): Promise<ApiJson> {
  const containerSid = opts.containerSid ?? (await defaultContainer(p));
  const res = await uploadRaw(
    p,
    { container_sid: containerSid, name: 'greeting.wav', ...(opts.publish ? { publish: opts.publish } : {}) },
    tone('wav', 1),
  );
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The partner's default container SID. */
export async function defaultContainer(p: TestPartner): Promise<string> {
  const res = await api()
    .get(`${API}/storage/containers`)
    .query({ filter: 'is_default eq true' })
    .set(...p.auth);
  const c = (res.body.items as Array<{ container_sid: string; is_default: boolean }>).find((x) => x.is_default);
  if (!c) throw new Error('no default container');
  return c.container_sid;
}

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP server on 127.0.0.1 that records every request; the first `failures` answers are 500. */
export async function callbackReceiver(
  failures = 0,
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString(),
      });
      res.statusCode = received.length <= failures ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/voicemail-hook`,
    received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
