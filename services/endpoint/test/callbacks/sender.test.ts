/** One callback attempt against real local HTTP servers: delivered, failed, refused (the SSRF guard), timed out. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendCallback } from '../../src/callbacks/sender';
import { verifyCallback } from '../../src/domain/callback-signature';

let server: http.Server;
let port = 0;
const seen: Array<{ method?: string; url?: string; body: string; signature: string }> = [];
let answer: (res: http.ServerResponse) => void = (res) => {
  res.statusCode = 204;
  res.end();
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        body: Buffer.concat(parts).toString(),
        signature: String(req.headers['x-patchbay-signature']),
      });
      answer(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);
beforeEach(() => {
  seen.length = 0;
  answer = (res) => {
    res.statusCode = 204;
    res.end();
  };
});

const fields = { file_sid: 'f-1', content_duration: 1.5, call_sid: null };
const open = { timeoutMs: 2000, allowPrivate: true };

test('POST with a JSON body, GET with the fields as query; both signed over what was sent', async () => {
  expect(await sendCallback({ url: `http://127.0.0.1:${port}/hook`, method: 'POST', fields, key: 'k' }, open)).toEqual({
    kind: 'delivered',
    status: 204,
  });
  expect(
    await sendCallback({ url: `http://127.0.0.1:${port}/hook?x=1`, method: 'GET', fields, key: 'k' }, open),
  ).toEqual({ kind: 'delivered', status: 204 });
  expect(JSON.parse(seen[0].body)).toEqual(fields);
  expect(verifyCallback('k', seen[0].body, seen[0].signature)).toBe(true);
  expect(seen[1].url).toBe('/hook?x=1&file_sid=f-1&content_duration=1.5&call_sid=');
  expect(verifyCallback('k', seen[1].url!.split('?')[1], seen[1].signature)).toBe(true);
});

test(
  'a non-2xx answer, a redirect (never followed) and a server that does ' + 'not answer are failures to retry',
  async () => {
    answer = (res) => {
      res.statusCode = 503;
      res.end();
    };
    expect(await sendCallback({ url: `http://127.0.0.1:${port}/`, method: 'POST', fields, key: 'k' }, open)).toEqual({
      kind: 'failed',
      reason: 'HTTP 503',
    });
    answer = (res) => {
      res.statusCode = 302;
      res.setHeader('Location', 'http://169.254.169.254/');
      res.end();
    };
    expect(await sendCallback({ url: `http://127.0.0.1:${port}/`, method: 'POST', fields, key: 'k' }, open)).toEqual({
      kind: 'failed',
      reason: 'HTTP 302 (redirects are not followed)',
    });
    expect(seen).toHaveLength(2);
    answer = () => undefined; // never answers
    const slow = await sendCallback(
      { url: `http://127.0.0.1:${port}/`, method: 'POST', fields, key: 'k' },
      { timeoutMs: 300, allowPrivate: true },
    );
    expect(slow).toEqual({ kind: 'failed', reason: 'no answer within 300 ms' });
    expect(await sendCallback({ url: 'http://127.0.0.1:1/', method: 'POST', fields, key: 'k' }, open)).toEqual({
      kind: 'failed',
      reason: 'connection refused',
    });
  },
);

test(
  'without allowPrivate: private addresses and names that resolve to ' + 'them are refused before connecting',
  async () => {
    const guarded = { timeoutMs: 2000, allowPrivate: false };
    for (const url of [
      `http://127.0.0.1:${port}/`,
      'http://10.0.0.1/',
      'http://[::1]:80/',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const outcome = await sendCallback({ url, method: 'POST', fields, key: 'k' }, guarded);
      expect(outcome.kind).toBe('refused');
    }
    const byName = await sendCallback({ url: `http://localhost:${port}/`, method: 'POST', fields, key: 'k' }, guarded);
    expect(byName).toEqual({ kind: 'refused', reason: 'this address is not allowed' });
    expect(await sendCallback({ url: 'ftp://example.com/x', method: 'POST', fields, key: 'k' }, guarded)).toMatchObject(
      {
        kind: 'refused',
      },
    );
    expect(await sendCallback({ url: 'not a url', method: 'POST', fields, key: 'k' }, guarded)).toMatchObject({
      kind: 'refused',
    });
    expect(seen).toEqual([]);
  },
);
