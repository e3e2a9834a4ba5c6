/**
 * Every adapter opens its sockets through the outbound-address guard, whatever call it makes: aimed
 * at this machine with private addresses not allowed, each operation fails as `address_not_allowed`
 * and a server that counts connections sees none; allowed, the same calls do reach it.
 */
import net from 'node:net';
import { Readable } from 'node:stream';
import type { ExternalAttributes, ExternalStoreType } from '@patchbay/contracts';
import { BlobStoreUnavailableError, type BlobStore } from '@patchbay/platform';
import { EXTERNAL_LIMITS, openExternalStore } from '../src';

let server: net.Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ATTRS: Record<ExternalStoreType, (host: string) => ExternalAttributes> = {
  aws_s3: (host) => ({
    bucket: 'b-1',
    endpoint: `http://${host}:${port}`,
    credentials: { access_key_id: 'k', secret_access_key: 's' },
  }),
  gcp_storage: (host) => ({ bucket: 'b-1', endpoint: `http://${host}:${port}` }),
  azure_blob: (host) => ({
    container: 'b-1',
    endpoint: `http://${host}:${port}/acct`,
    credentials: { account_name: 'acct', account_key: Buffer.alloc(32, 1).toString('base64') },
  }),
};

const operations: Array<[string, (s: BlobStore) => Promise<unknown>]> = [
  ['put', (s) => s.put('k', Readable.from([Buffer.from('x')]))],
  ['get', (s) => s.get('k')],
  ['stat', (s) => s.stat('k')],
  ['delete', (s) => s.delete('k')],
];

async function open(type: ExternalStoreType, host: string, allowPrivateAddresses: boolean): Promise<BlobStore> {
  return openExternalStore(type, ATTRS[type](host), {
    ...EXTERNAL_LIMITS,
    connectTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    retries: 0,
    allowPrivateAddresses,
  });
}

describe.each(['aws_s3', 'gcp_storage', 'azure_blob'] as const)('%s', (type) => {
  test('refuses this machine at connect time, on every operation, however it is written', async () => {
    connections = 0;
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '2130706433']) {
      const store = await open(type, host, false);
      for (const [name, op] of operations) {
        const err = await op(store).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect({ host, name, reason: (err as BlobStoreUnavailableError).reason }).toEqual({
          host,
          name,
          reason: 'address_not_allowed',
        });
      }
      await store.close?.();
    }
    expect(connections).toBe(0);
  }, 60_000);

  test('allowed, the same calls reach the server', async () => {
    connections = 0;
    const store = await open(type, '127.0.0.1', true);
    await store.stat('k').catch(() => undefined);
    await store.close?.();
    expect(connections).toBeGreaterThan(0);
  }, 30_000);
});
