/**
 * AzureBlobStore against a private Azurite (started here, stopped in afterAll): the blob-store
 * contract, then prefixes, pages, the SAS form of credentials, and error translation — a wrong
 * account key included, which Azurite checks.
 */
import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import {
  BlobServiceClient,
  ContainerSASPermissions,
  StorageSharedKeyCredential,
  generateBlobSASQueryParameters,
} from '@azure/storage-blob';
import { BadRequestError } from '@patchbay/contracts';
import { BlobStoreUnavailableError, probeBlobStore } from '@patchbay/platform';
import { describeBlobStoreContract } from '@patchbay/platform/test/blob-store/blob-store-contract';
import { bufferStream, generated, readAll } from '@patchbay/platform/test/blob-store/blob-test-kit';
import { AzureBlobStore, type AzureBlobStoreOptions } from '../src';
import { DEV_ACCOUNT, DEV_KEY, startAzurite, type AzuriteHandle } from './azurite-server';

const CONTAINER = 'media';
const devKey = { account_name: DEV_ACCOUNT, account_key: DEV_KEY };

let azurite: AzuriteHandle;
beforeAll(async () => {
  azurite = await startAzurite();
  const service = new BlobServiceClient(azurite.endpoint, new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY));
  await service.getContainerClient(CONTAINER).create();
});
afterAll(async () => {
  await azurite?.stop();
});

const open = (opts: Partial<AzureBlobStoreOptions> = {}) =>
  new AzureBlobStore({
    container: CONTAINER,
    endpoint: azurite.endpoint,
    credentials: devKey,
    retries: 0,
    allowPrivateAddresses: true,
    ...opts,
  });

/** A SAS for the test container, signed with the development key. */
function sas(permissions: string): string {
  return generateBlobSASQueryParameters(
    {
      containerName: CONTAINER,
      permissions: ContainerSASPermissions.parse(permissions),
      expiresOn: new Date(Date.now() + 3600_000),
    },
    new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY),
  ).toString();
}

async function failure(op: () => Promise<unknown>): Promise<BlobStoreUnavailableError> {
  const err = await op().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BlobStoreUnavailableError);
  expect((err as Error).message).not.toContain(DEV_KEY);
  return err as BlobStoreUnavailableError;
}

const everyOperation = (store: AzureBlobStore): Array<() => Promise<unknown>> => [
  () => probeBlobStore(store),
  () => store.put('k', bufferStream('x')),
  () => store.get('k'),
  () => store.get('k', { start: 0, end: 1 }),
  () => store.stat('k'),
  () => store.delete('k'),
  async () => {
    for await (const _ of store.list('')) void _;
  },
];

describeBlobStoreContract(
  'AzureBlobStore (Azurite)',
  async () => open({ prefix: `contract-${randomUUID().slice(0, 8)}` }),
  { offersPutFile: true },
);

describe('AzureBlobStore specifics', () => {
  it('reads of missing blobs give their connections back: 60 of them (the agent holds 50)', async () => {
    const store = open({ prefix: `missing-${randomUUID().slice(0, 8)}/` });
    await store.put('there', bufferStream('still readable'));
    for (let i = 0; i < 60; i++) await expect(store.get(`gone-${i}`)).rejects.toMatchObject({ code: 'blob_not_found' });
    expect((await readAll(await store.get('there'))).toString()).toBe('still readable');
  }, 20_000);

  it('keeps each prefix to itself: keys are stored under it and listed without it', async () => {
    const a = open({ prefix: 'tenant-a/' });
    const b = open({ prefix: '/tenant-b' });
    await a.put('same/key', bufferStream('from a'));
    await b.put('same/key', bufferStream('from b'));
    expect((await readAll(await a.get('same/key'))).toString()).toBe('from a');
    const listed: string[] = [];
    for await (const k of a.list('')) listed.push(k);
    expect(listed).toEqual(['same/key']);
    expect((await open().stat('tenant-b/same/key')).size).toBe(6);
    await b.delete('same/key');
    expect((await readAll(await a.get('same/key'))).toString()).toBe('from a');
  });

  it('lists more than one page of keys', async () => {
    const store = open({ prefix: `paged-${randomUUID().slice(0, 8)}`, pageSize: 7 });
    const keys = Array.from({ length: 23 }, (_, i) => `k/${String(i).padStart(2, '0')}`);
    await Promise.all(keys.map((k) => store.put(k, bufferStream('x'))));
    await store.put('other', bufferStream('not under k/'));
    const listed: string[] = [];
    for await (const k of store.list('k/')) listed.push(k);
    expect(listed).toEqual(keys);
  });

  it('works with a SAS token instead of the account key, and probes clean', async () => {
    const store = new AzureBlobStore({
      container: CONTAINER,
      endpoint: azurite.endpoint,
      credentials: { sas_token: `?${sas('racwdl')}` },
      prefix: 'sas',
      allowPrivateAddresses: true,
    });
    await probeBlobStore(store);
    await store.put('k', bufferStream('via sas'));
    expect((await readAll(await store.get('k'))).toString()).toBe('via sas');
    const listed: string[] = [];
    for await (const k of store.list('')) listed.push(k);
    expect(listed).toEqual(['k']);
  });

  it("makes a refusal mid-upload the put's error and stops reading the body (a read-only SAS)", async () => {
    const store = new AzureBlobStore({
      container: CONTAINER,
      endpoint: azurite.endpoint,
      credentials: { sas_token: sas('rl') },
      retries: 0,
      allowPrivateAddresses: true,
    });
    const body = generated(48 * 1024 * 1024, 3).stream();
    expect(await failure(() => store.put('k', body))).toMatchObject({
      reason: 'access_denied',
      message: "access denied to container 'media': check the credentials' permissions",
    });
    expect(body.destroyed).toBe(true);
    expect(body.readableEnded).toBe(false);
    expect(await failure(() => probeBlobStore(store))).toMatchObject({ reason: 'access_denied' });
  });

  it('names a missing container on every operation', async () => {
    const store = open({ container: 'no-such-container' });
    for (const op of everyOperation(store)) {
      expect(await failure(op)).toMatchObject({
        reason: 'bucket_missing',
        status: 503,
        message: "container 'no-such-container' does not exist",
      });
    }
  });

  it('says the credentials are wrong when the account key is, on every operation', async () => {
    const wrongKey = Buffer.from('not the account key, but valid Base64').toString('base64');
    const store = open({ credentials: { account_name: DEV_ACCOUNT, account_key: wrongKey } });
    const ops = everyOperation(store);
    const stat = ops.splice(4, 1)[0]!;
    for (const op of ops) {
      const err = await failure(op);
      expect(err).toMatchObject({
        reason: 'bad_credentials',
        message: 'the storage rejected the credentials: check account_name and account_key, or sas_token',
      });
      expect(err.message).not.toContain(wrongKey);
    }
    // Azure names a bad signature AuthenticationFailed, on a bodiless HEAD too (azure-errors.test.ts);
    // Azurite says AuthorizationFailure, and only its message (absent from a HEAD) tells them apart.
    expect(await failure(stat)).toMatchObject({ reason: 'access_denied' });
  });

  it('turns a closed port into "unreachable", naming the endpoint, at once', async () => {
    const store = open({ endpoint: 'http://127.0.0.1:1/devstoreaccount1' });
    const started = Date.now();
    for (const op of [
      () => store.stat('k'),
      () => store.get('k'),
      () => store.put('k', bufferStream('x')),
      () => store.delete('k'),
    ]) {
      expect(await failure(op)).toMatchObject({
        reason: 'unreachable',
        message: 'cannot reach http://127.0.0.1:1/devstoreaccount1: connection refused',
      });
    }
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('turns a server that accepts but never answers into "timeout"', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((sock) => {
      sockets.add(sock);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/${DEV_ACCOUNT}`;
    const store = open({ endpoint, timeoutMs: 300 });
    try {
      for (const op of [() => store.stat('k'), () => store.get('k'), () => store.put('k', bufferStream('x'))]) {
        const started = Date.now();
        expect(await failure(op)).toMatchObject({ reason: 'timeout', message: `${endpoint} did not answer in time` });
        expect(Date.now() - started).toBeLessThan(3000);
      }
    } finally {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it('refuses options that cannot work before any request, never quoting a key', () => {
    const bad: Array<[Partial<AzureBlobStoreOptions>, RegExp]> = [
      [
        { endpoint: undefined, credentials: { sas_token: 'sv=2024&sig=SECRET' } },
        /endpoint is required unless credentials name the account/,
      ],
      [
        { credentials: { account_name: DEV_ACCOUNT, account_key: 'SECRET not base64!' } },
        /account_key is not a Base64 account key/,
      ],
      [
        { endpoint: 'http://127.0.0.1:1/acct?sig=SECRET' },
        /must not contain a query \(put a SAS token in credentials.sas_token\)/,
      ],
      [{ endpoint: 'blob.example' }, /endpoint 'blob.example' is not a URL/],
      [{ prefix: 'a/./b' }, /prefix 'a\/.\/b' is not a valid key prefix/],
    ];
    for (const [opts, message] of bad) {
      let err: unknown;
      try {
        open(opts);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BlobStoreUnavailableError);
      expect(err).toMatchObject({ reason: 'invalid_config', message: expect.stringMatching(message) });
      expect((err as Error).message).not.toContain('SECRET');
    }
  });

  it('rejects a list prefix that is not a key prefix', async () => {
    const keys = async () => {
      for await (const _ of open().list('../')) void _;
    };
    await expect(keys()).rejects.toBeInstanceOf(BadRequestError);
  });
});
