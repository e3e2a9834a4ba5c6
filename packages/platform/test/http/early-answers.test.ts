/**
 * closeEarlyAnswers on a real server and raw sockets: an answer sent while the body is still coming
 * says `Connection: close` and the connection ends within the drain, whatever the client goes on
 * sending; an answer after the whole body keeps the connection; a route that gave up on its body
 * stream (its iterator destroyed the request) still answers normally.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { closeEarlyAnswers } from '../../src/http/early-answers';
import { consistently, untilTrue } from '../../../../tests/support/poll';

let server: http.Server;

/** `/early` answers at once; `/gave-up` stops reading with an error, then answers; anything else reads it all. */
async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.url === '/early') {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{}');
    return;
  }
  if (req.url === '/gave-up') {
    try {
      for await (const _chunk of req) throw new Error('not what this route reads');
    } catch {
      res.statusCode = 400;
      res.end('{"message":"bad body"}');
      return;
    }
  }
  for await (const _chunk of req); // read to the end
  res.end('{}');
}
let port: number;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    void answer(req, res);
  });
  closeEarlyAnswers(server, { bytes: 64 * 1024, ms: 500 });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Sends a head declaring `declared` bytes and `first` of them, then trickles until the server closes. */
function exchange(path: string, declared: number, first: string) {
  const started = Date.now();
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n${first}`);
  const trickle = setInterval(() => socket.writable && socket.write('x'), 50);
  socket.on('data', (b: Buffer) => (received += b.toString('latin1')));
  socket.on('error', () => undefined);
  return new Promise<{ head: string; closedMs: number }>((resolve) => {
    socket.on('close', () => {
      clearInterval(trickle);
      resolve({ head: received.split('\r\n\r\n')[0].toLowerCase(), closedMs: Date.now() - started });
    });
    setTimeout(() => socket.destroy(), 5000).unref();
  });
}

test('an answer before the body: Connection: close, and the trickling client is cut after the drain', async () => {
  const out = await exchange('/early', 1_000_000, 'abc');
  expect(out.head).toMatch(/^http\/1\.1 401/);
  expect(out.head).toContain('connection: close');
  expect(out.closedMs).toBeLessThan(2000);
});

test('a route whose body stream was destroyed still answers, and closes', async () => {
  const out = await exchange('/gave-up', 1_000_000, 'abc');
  expect(out.head).toMatch(/^http\/1\.1 400/);
  expect(out.head).toContain('connection: close');
  expect(out.closedMs).toBeLessThan(2000);
});

test('an answer after the whole body keeps the connection', async () => {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (b: Buffer) => (received += b.toString('latin1')));
  socket.write('POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc');
  await untilTrue(() => received.includes('\r\n\r\n'), { what: 'the answer' });
  expect(received).toMatch(/^HTTP\/1\.1 200/);
  expect(received.toLowerCase()).not.toContain('connection: close');
  await consistently(() => expect(socket.destroyed).toBe(false), 200); // the server does not close it after all
  socket.destroy();
});
