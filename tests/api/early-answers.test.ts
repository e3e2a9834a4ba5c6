/**
 * An answer given before the request's body arrived closes its connection (decisions §51): the
 * answer says `Connection: close`, what the client still sends is dropped for at most a second (or
 * 64 KiB), then the connection is closed — on the API (a 401 for a missing token, a 413 for a JSON
 * body declared over the limit, answered before a byte of it is read) and on the file server. A body
 * that was read to its end keeps its keep-alive connection.
 */
import net from 'node:net';
import { instance, newPartner, type TestPartner } from '../harness/api';
import { untilTrue } from '../support/poll';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner();
});

interface Outcome {
  status: number | null;
  head: string;
  /** When the answer's first bytes arrived, and when the connection was closed, from the request's start. */
  answeredMs: number | null;
  closedMs: number;
  /** Body bytes the client managed to write before the connection closed. */
  sent: number;
}

/**
 * Sends a request head declaring `declared` body bytes, then trickles `chunk` every `everyMs`, and
 * keeps its own side open (allowHalfOpen) like a client that does not read: only the server can end it.
 */
function trickleRequest(port: number, head: string, declared: number, chunk = 'x'.repeat(10), everyMs = 100) {
  const started = Date.now();
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  let answeredMs: number | null = null;
  let sent = 0;
  return new Promise<Outcome>((resolve) => {
    socket.on('connect', () => {
      socket.write(`${head}Host: 127.0.0.1\r\nContent-Length: ${declared}\r\n\r\n`);
      const timer = setInterval(() => {
        if (socket.destroyed || !socket.writable || sent + chunk.length > declared) return clearInterval(timer);
        socket.write(chunk);
        sent += chunk.length;
      }, everyMs);
      socket.once('close', () => clearInterval(timer));
    });
    socket.on('data', (b: Buffer) => {
      answeredMs ??= Date.now() - started;
      received += b.toString('latin1');
    });
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({
        status: m ? Number(m[1]) : null,
        head: received.split('\r\n\r\n')[0].toLowerCase(),
        answeredMs,
        closedMs: Date.now() - started,
        sent,
      });
    });
  });
}

const apiPort = () => Number(new URL(instance().origin).port);

test('a 401 before the body: Connection: close, and a client trickling the rest is cut within seconds', async () => {
  const out = await trickleRequest(
    apiPort(),
    'POST /core/v2/endpoints HTTP/1.1\r\nContent-Type: application/json\r\n',
    1_000_000,
  );
  expect(out.status).toBe(401);
  expect(out.head).toContain('connection: close');
  expect(out.answeredMs).toBeLessThan(3000);
  // The drain is at most a second; without it the trickle lasted as long as the client (95 s seen).
  expect(out.closedMs - (out.answeredMs ?? 0)).toBeLessThan(2500);
  expect(out.sent).toBeLessThan(1000);
}, 30000);

test('a JSON body declared over the limit: 413 at once, before it is read, and the connection closed', async () => {
  // 10 bytes every 100 ms: the old way read this body for the whole 30 s body window, then answered 408.
  const out = await trickleRequest(
    apiPort(),
    `POST /core/v2/endpoints HTTP/1.1\r\nAuthorization: Bearer ${p.token}\r\nContent-Type: application/json\r\n`,
    50 * 1024 * 1024,
  );
  expect(out.status).toBe(413);
  expect(out.head).toContain('connection: close');
  expect(out.answeredMs).toBeLessThan(5000);
  expect(out.closedMs).toBeLessThan(8000);
}, 30000);

test('the file server closes an early answer too (a body on a public file URL)', async () => {
  const port = Number(new URL(instance().storageUrl).port);
  const out = await trickleRequest(port, 'POST /f/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\n', 1_000_000);
  expect(out.status).toBeGreaterThanOrEqual(400);
  expect(out.status).toBeLessThan(500);
  expect(out.head).toContain('connection: close');
  expect(out.closedMs - (out.answeredMs ?? 0)).toBeLessThan(2500);
}, 30000);

test('an answer after the whole body was read keeps the connection for the next request', async () => {
  const socket = net.connect(apiPort(), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const body = JSON.stringify({ name: 'x' });
  let received = '';
  socket.on('data', (b: Buffer) => (received += b.toString('latin1')));
  const request = (path: string) =>
    socket.write(
      `POST /core/v2${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${p.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
  const statusLines = () => received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
  const answers = async (n: number) => {
    await untilTrue(() => statusLines().length >= n, { what: `${n} answers`, everyMs: 20 });
    return statusLines();
  };
  request('/endpoints'); // a 400 (the body is not an endpoint), but it was read to its end
  expect(await answers(1)).toHaveLength(1);
  expect(received.toLowerCase()).not.toContain('connection: close');
  request('/endpoints');
  expect(await answers(2)).toHaveLength(2);
  socket.destroy();
});
