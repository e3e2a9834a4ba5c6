/** Each Voicemail callback attempt is a span of its own (decisions §42): its outcome, never the partner's URL. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureSpans } from '@patchbay/platform/src/testing/capture-spans';
import { sendCallback } from '../../src/callbacks/sender';

let tracing: ReturnType<typeof captureSpans>;
let server: http.Server;
let status = 204;
beforeAll(async () => {
  tracing = captureSpans('endpoint-test');
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  await tracing.stop();
  await new Promise<void>((r) => server.close(() => r()));
});

test('delivered and failed attempts: one client span each, with the outcome and status, without the URL', async () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?secret=s3cr3t`;
  const req = { url, method: 'POST' as const, fields: { file_sid: 'f-1' }, key: 'k' };
  expect(await sendCallback(req, { timeoutMs: 2000, allowPrivate: true })).toEqual({ kind: 'delivered', status: 204 });
  status = 500;
  expect(await sendCallback(req, { timeoutMs: 2000, allowPrivate: true })).toMatchObject({ kind: 'failed' });
  const spans = tracing.spans().filter((s) => s.name === 'endpoint callback');
  expect(spans.map((s) => s.attributes)).toEqual([
    { 'http.request.method': 'POST', 'patchbay.callback.outcome': 'delivered', 'http.response.status_code': 204 },
    { 'http.request.method': 'POST', 'patchbay.callback.outcome': 'failed' },
  ]);
  expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('s3cr3t');
});
