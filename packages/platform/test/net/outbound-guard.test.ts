/**
 * The outbound-address guard against a real local server that counts every TCP connection made to
 * it: ten spellings of this machine are refused, up front and at connect time, with one message,
 * and the server sees none of them; the same agent allowed (or a trusted destination) connects.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import {
  ADDRESS_NOT_ALLOWED,
  AddressNotAllowedError,
  GuardedHttpAgent,
  GuardedHttpsAgent,
  assertPublicUrl,
  outboundAgents,
} from '../../src';

let server: net.Server;
let port = 0;
let connections = 0;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  // Dual-stack: IPv4 and IPv6 connections to any local address arrive here.
  server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  connections = 0;
});

/** Ten ways to write this machine's address (five common spellings and five less common ones). */
const SPELLINGS = [
  '127.0.0.1',
  '0.0.0.0',
  'localhost',
  '2130706433',
  '[::ffff:127.0.0.1]',
  '0x7f.1',
  '0177.0.0.1',
  '127.1',
  '[::1]',
  '[::]',
];

function get(url: string, agent: http.Agent): Promise<string> {
  return new Promise((resolve) => {
    const req = (url.startsWith('https:') ? https : http).get(url, { agent }, (res) => {
      res.resume();
      resolve(`HTTP ${res.statusCode}`);
    });
    req.on('error', (err) => resolve(err.message));
  });
}

test('every spelling is refused before any connection by the up-front check, with one message', async () => {
  const messages = new Set<string>();
  for (const host of SPELLINGS) {
    const err = await assertPublicUrl(`http://${host}:${port}/`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect({ host, refused: err instanceof AddressNotAllowedError }).toEqual({ host, refused: true });
    messages.add((err as Error).message);
  }
  expect([...messages]).toEqual([ADDRESS_NOT_ALLOWED]);
  expect(connections).toBe(0);
});

test(
  'the guarded agents refuse every spelling at connect time (http and ' + 'https), and the server sees none',
  async () => {
    const agent = new GuardedHttpAgent({ keepAlive: true });
    const tls = new GuardedHttpsAgent({ keepAlive: true });
    const outcomes = new Set<string>();
    for (const host of SPELLINGS) {
      outcomes.add(await get(`http://${host}:${port}/`, agent));
      outcomes.add(await get(`https://${host}:${port}/`, tls));
    }
    agent.destroy();
    tls.destroy();
    expect([...outcomes]).toEqual([ADDRESS_NOT_ALLOWED]);
    expect(connections).toBe(0);
  },
);

test('allowed, or to a trusted destination, the same requests connect', async () => {
  const open = outboundAgents({ allowPrivate: true, keepAlive: false });
  expect(await get(`http://127.0.0.1:${port}/`, open.http)).toBe('HTTP 204');
  const trusted = new GuardedHttpAgent({ trusted: (host, p) => host === 'localhost' && p === port });
  expect(await get(`http://localhost:${port}/`, trusted)).toBe('HTTP 204');
  // Trust is per destination: the same host on another port is still refused.
  expect(await get(`http://localhost:${port + 1}/`, trusted)).toBe(ADDRESS_NOT_ALLOWED);
  expect(connections).toBe(2);
  open.http.destroy();
  trusted.destroy();
});

test(
  'a public address passes the up-front check without a lookup; an ' + 'unresolvable name is left to fail on its own',
  async () => {
    await expect(assertPublicUrl('http://8.8.8.8:1/')).resolves.toBeUndefined();
    await expect(assertPublicUrl('http://no-such-host.invalid/')).resolves.toBeUndefined();
  },
);
