/**
 * GcsBlobStore against a small fake of the GCS JSON API (started here, stopped in afterAll): the
 * blob-store contract, then prefixes, pages, what the library sends, and error translation.
 */
import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { BadRequestError } from '@patchbay/contracts';
import { BlobStoreUnavailableError, probeBlobStore } from '@patchbay/platform';
import { describeBlobStoreContract } from '@patchbay/platform/test/blob-store/blob-store-contract';
import {
  bufferStream,
  failingStream,
  generated,
  readAll,
  sha256Of,
} from '@patchbay/platform/test/blob-store/blob-test-kit';
import { GcsBlobStore, type GcsBlobStoreOptions } from '../src';
import { startFakeGcs, type FakeGcs } from './fake-gcs-server';
import { untilTrue } from '../../../tests/support/poll';

const MiB = 1024 * 1024;

let gcs: FakeGcs;
beforeAll(async () => {
  gcs = await startFakeGcs({
    media: 'ok',
    locked: 'denied',
    revoked: 'unauthorized',
    failing: 'failing-uploads',
    rotting: 'corrupting-uploads',
  });
});
afterAll(async () => {
  await gcs?.stop();
});

const open = (opts: Partial<GcsBlobStoreOptions> = {}) =>
  new GcsBlobStore({ bucket: 'media', endpoint: gcs.endpoint, retries: 0, allowPrivateAddresses: true, ...opts });

describeBlobStoreContract(
  'GcsBlobStore (fake GCS JSON API)',
  async () => open({ prefix: `contract-${randomUUID().slice(0, 8)}` }),
  {
    leftovers: async () => [...gcs.sessions.keys()],
  },
);

describe('GcsBlobStore specifics', () => {
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

  it('uploads through a resumable session, sends ranges to the server and checks full reads by CRC32C', async () => {
    const store = open({ prefix: 'wire' });
    const content = generated(3 * MiB + 7, 4);
    gcs.seen.length = 0;
    await store.put('w', content.stream());
    expect(await sha256Of(await store.get('w'))).toBe(content.sha256);
    expect((await readAll(await store.get('w', { start: 10, end: 19 }))).length).toBe(10);
    expect(gcs.seen.map((s) => s.replace(/upload_id=[^&]+/, 'upload_id=…'))).toEqual([
      'POST /upload/storage/v1/b/media/o?name=wire%2Fw&uploadType=resumable',
      'PUT /upload/storage/v1/b/media/o?uploadType=resumable&upload_id=…',
      'GET /storage/v1/b/media/o/wire%2Fw?alt=media',
      'GET /storage/v1/b/media/o/wire%2Fw?alt=media',
    ]);
  });

  it('aborts the upload and cancels its session when the body fails mid-upload', async () => {
    const store = open({ prefix: 'cut' });
    await store.put('k', bufferStream('old'));
    gcs.seen.length = 0;
    await expect(store.put('k', failingStream(2 * MiB))).rejects.toThrow('source failed');
    expect((await readAll(await store.get('k'))).toString()).toBe('old');
    expect(gcs.seen.filter((s) => s.startsWith('DELETE /upload/'))).toHaveLength(1);
    expect(gcs.sessions.size).toBe(0);
    // The PUT was aborted, not left hanging.
    await untilTrue(() => gcs.openUploads() === 0, { what: 'no upload left open', timeoutMs: 2000, everyMs: 20 });
  });

  it("makes a storage failure mid-upload the put's error, stops reading the body and cancels the session", async () => {
    const body = generated(32 * MiB, 2).stream();
    await expect(open({ bucket: 'failing' }).put('k', body)).rejects.toMatchObject({
      reason: 'provider_error',
      message: 'the storage failed (HTTP 503): Backend Error',
    });
    expect(body.destroyed).toBe(true);
    expect(body.readableEnded).toBe(false);
    expect(gcs.sessions.size).toBe(0);
  });

  it('removes an upload that GCS stored with other bytes than were sent, and fails the put', async () => {
    const store = open({ bucket: 'rotting' });
    await expect(store.put('k', bufferStream('bytes that arrive changed'))).rejects.toMatchObject({
      reason: 'provider_error',
      message: 'the storage returned data that does not match its checksum',
    });
    await expect(store.stat('k')).rejects.toMatchObject({ status: 404 });
  });

  it('fails a full read whose bytes do not match the stored CRC32C', async () => {
    const store = open({ prefix: 'rot' });
    await store.put('k', generated(2 * MiB, 9).stream());
    gcs.corrupt('media', 'rot/k');
    const stream = await store.get('k'); // the damage shows only at the end, long after the first bytes
    await expect(readAll(stream)).rejects.toMatchObject({
      reason: 'provider_error',
      message: 'the storage returned data that does not match its checksum',
    });
  });

  it('probes a working bucket and leaves nothing behind', async () => {
    const store = open({ prefix: `probe-${randomUUID().slice(0, 8)}` });
    await probeBlobStore(store);
    const left: string[] = [];
    for await (const k of store.list('')) left.push(k);
    expect(left).toEqual([]);
  });

  it.each([
    ['no-such-bucket', 'bucket_missing', "bucket 'no-such-bucket' does not exist"],
    [
      'locked',
      'access_denied',
      "access denied to bucket 'locked': probe@patchbay-test.iam.gserviceaccount.com does not have storage.objects",
    ],
    ['revoked', 'bad_credentials', 'the storage rejected the credentials: check service_account_json'],
  ])('translates bucket %s into %s on every operation', async (bucket, reason, message) => {
    const store = open({ bucket });
    const ops: Array<() => Promise<unknown>> = [
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
    for (const op of ops) {
      const err = await op().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BlobStoreUnavailableError);
      expect(err).toMatchObject({ reason, status: 503, message: expect.stringContaining(message) });
    }
  });

  it('turns a closed port into "unreachable", naming the endpoint, at once', async () => {
    const store = open({ endpoint: 'http://127.0.0.1:1' });
    const started = Date.now();
    for (const op of [
      () => store.stat('k'),
      () => store.get('k'),
      () => store.put('k', bufferStream('x')),
      () => store.delete('k'),
    ]) {
      const err = await op().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BlobStoreUnavailableError);
      expect(err).toMatchObject({
        reason: 'unreachable',
        message: 'cannot reach http://127.0.0.1:1: connection refused',
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
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const store = open({ endpoint, timeoutMs: 300 });
    try {
      for (const op of [() => store.stat('k'), () => store.get('k'), () => store.put('k', bufferStream('x'))]) {
        const started = Date.now();
        await expect(op()).rejects.toMatchObject({ reason: 'timeout', message: `${endpoint} did not answer in time` });
        expect(Date.now() - started).toBeLessThan(3000);
      }
    } finally {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it('refuses options that cannot work before any request, never quoting the key file', () => {
    const keyFile = Buffer.from(JSON.stringify({ type: 'service_account', private_key: 'SECRET-KEY' })).toString(
      'base64',
    );
    const bad: Array<[Partial<GcsBlobStoreOptions>, RegExp]> = [
      [{ endpoint: undefined }, /service_account_json is required for Google Cloud Storage/],
      [{ credentials: { service_account_json: 'not base64 json' } }, /not Base64 of a service account key file/],
      [{ credentials: { service_account_json: keyFile } }, /not Base64 of a service account key file/],
      [{ endpoint: 'storage.example' }, /endpoint 'storage.example' is not a URL/],
      [{ prefix: '../x' }, /prefix '..\/x' is not a valid key prefix/],
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
      expect((err as Error).message).not.toContain('SECRET-KEY');
    }
  });

  it('rejects a list prefix that is not a key prefix', async () => {
    const keys = async () => {
      for await (const _ of open().list('../')) void _;
    };
    await expect(keys()).rejects.toBeInstanceOf(BadRequestError);
  });
});
