/**
 * A request that gets no answer fails with a PatchbayConnectionError naming the API root and the
 * cause in words, against real sockets: a port nobody listens on, a server that drops the connection.
 */
import net from 'node:net';
import { createPatchbayClient, data, PatchbayConnectionError } from '../src';

/** A port that was just free: listened on, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo; // why: listening on TCP, address() is an AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('a refused connection names the URL and "connection refused"', async () => {
  const baseUrl = `http://127.0.0.1:${await closedPort()}/core/v2`;
  const pb = createPatchbayClient({ baseUrl, credentials: { token: 'secret-token' } });
  const err = await data(pb.api.GET('/oauth/whoami')).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PatchbayConnectionError);
  const e = err as PatchbayConnectionError; // why: asserted just above
  expect(e.message).toBe(`cannot reach ${baseUrl}: connection refused`);
  expect(e.code).toBe('ECONNREFUSED');
  expect(e.url).toBe(baseUrl);
  expect(e.message).not.toContain('secret-token');
});

test('paginate and publicFile fail the same way (a public link names its origin only)', async () => {
  const port = await closedPort();
  const pb = createPatchbayClient({ baseUrl: `http://127.0.0.1:${port}/core/v2` });
  const walk = async () => {
    for await (const item of pb.paginate('/countries')) void item;
  };
  await expect(walk()).rejects.toThrow(`cannot reach http://127.0.0.1:${port}/core/v2: connection refused`);
  await expect(pb.publicFile(`http://127.0.0.1:${port}/f/abc?secret=1`)).rejects.toThrow(
    new PatchbayConnectionError(`http://127.0.0.1:${port}`, 'connection refused', 'ECONNREFUSED', null).message,
  );
});

test('a server that closes the connection without answering is named too', async () => {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo; // why: listening on TCP
  try {
    const pb = createPatchbayClient({ baseUrl: `http://127.0.0.1:${port}/core/v2` });
    const err = await data(pb.api.GET('/countries')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PatchbayConnectionError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^cannot reach http://127\\.0\\.0\\.1:${port}/core/v2: ` +
          '(connection reset|connection closed by the server|other side closed)',
      ),
    );
  } finally {
    server.close();
  }
});
