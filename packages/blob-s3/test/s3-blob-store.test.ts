/**
 * S3BlobStore against a private s3rver (started here, stopped in afterAll): the blob-store contract,
 * then what is S3's own — prefixes, multipart uploads, error translation.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
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
import { S3BlobStore, type S3BlobStoreOptions } from '../src';
import { startRecordingProxy } from './s3-fake-server';
import { startS3rver, type S3rverHandle } from './s3rver-server';

const MiB = 1024 * 1024;
const BUCKET = 'patchbay-test';
const credentials = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' };

let server: S3rverHandle;
beforeAll(async () => {
  server = await startS3rver([BUCKET]);
});
afterAll(async () => {
  await server?.stop();
});

const open = (opts: Partial<S3BlobStoreOptions> = {}) =>
  new S3BlobStore({
    bucket: BUCKET,
    endpoint: server.endpoint,
    credentials,
    partSize: 5 * MiB,
    allowPrivateAddresses: true,
    ...opts,
  });

/** Multipart uploads s3rver still holds: what a failed put must not leave. */
async function pendingUploads(): Promise<string[]> {
  return readdir(path.join(server.dir, BUCKET, '._S3rver_uploads')).catch(() => []);
}

// 5 MiB parts, so the 5 MiB + 123 round trip of the suite goes through a multipart upload.
describeBlobStoreContract(
  'S3BlobStore (s3rver)',
  async () => open({ prefix: `contract-${randomUUID().slice(0, 8)}` }),
  {
    leftovers: pendingUploads,
  },
);

describe('S3BlobStore specifics', () => {
  const stores: S3BlobStore[] = [];
  const track = (s: S3BlobStore) => {
    stores.push(s);
    return s;
  };
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
  });

  it('keeps each prefix to itself: keys are stored under it and listed without it', async () => {
    const a = track(open({ prefix: 'tenant-a/' }));
    const b = track(open({ prefix: '/tenant-b' }));
    const whole = track(open());
    await a.put('same/key', bufferStream('from a'));
    await b.put('same/key', bufferStream('from b'));
    expect((await readAll(await a.get('same/key'))).toString()).toBe('from a');
    expect((await readAll(await b.get('same/key'))).toString()).toBe('from b');
    const listed: string[] = [];
    for await (const k of a.list('')) listed.push(k);
    expect(listed).toEqual(['same/key']);
    expect((await whole.stat('tenant-a/same/key')).size).toBe(6);
    await b.delete('same/key');
    expect((await readAll(await a.get('same/key'))).toString()).toBe('from a');
  });

  it('lists more than one page of keys', async () => {
    const store = track(open({ prefix: `paged-${randomUUID().slice(0, 8)}`, pageSize: 7 }));
    const keys = Array.from({ length: 23 }, (_, i) => `k/${String(i).padStart(2, '0')}`);
    await Promise.all(keys.map((k) => store.put(k, bufferStream('x'))));
    await store.put('other', bufferStream('not under k/'));
    const listed: string[] = [];
    for await (const k of store.list('k/')) listed.push(k);
    expect(listed.sort()).toEqual(keys);
  });

  it('round-trips a three-part upload and serves a range across a part boundary', async () => {
    const store = track(open({ prefix: 'multi' }));
    const content = generated(12 * MiB + 1, 5);
    await expect(store.put('m', content.stream())).resolves.toEqual({ size: 12 * MiB + 1 });
    expect(await sha256Of(await store.get('m'))).toBe(content.sha256);
    // across a part boundary
    expect((await readAll(await store.get('m', { start: 5 * MiB - 1, end: 5 * MiB }))).length).toBe(2);
  });

  it('reads a range with a single GET that carries it', async () => {
    const proxy = await startRecordingProxy(server.endpoint);
    try {
      const store = track(open({ endpoint: proxy.endpoint, prefix: 'one-trip' }));
      await store.put('r', bufferStream('0123456789'));
      proxy.seen.length = 0;
      expect((await readAll(await store.get('r', { start: 2, end: 4 }))).toString()).toBe('234');
      expect(proxy.seen.map((r) => `${r.method} ${r.url} ${r.headers.range}`)).toEqual([
        'GET /patchbay-test/one-trip/r?x-id=GetObject bytes=2-4',
      ]);
    } finally {
      await proxy.stop();
    }
  });

  it('aborts a multipart upload that fails after its first part and rejects with the source error', async () => {
    // s3rver refuses AbortMultipartUpload (405); the proxy shows that the adapter asked for it.
    const proxy = await startRecordingProxy(server.endpoint);
    try {
      const store = track(open({ endpoint: proxy.endpoint, prefix: 'multi-fail' }));
      await store.put('gone', bufferStream('old'));
      await expect(store.put('gone', failingStream(6 * MiB))).rejects.toThrow('source failed');
      const calls = proxy.seen.map((r) => `${r.method} ${r.url.replace(/uploadId=[^&]+/, 'uploadId=…')}`);
      expect(calls).toEqual([
        'PUT /patchbay-test/multi-fail/gone?x-id=PutObject', // the old object
        'POST /patchbay-test/multi-fail/gone?uploads=',
        'PUT /patchbay-test/multi-fail/gone?partNumber=1&uploadId=…&x-id=UploadPart',
        'DELETE /patchbay-test/multi-fail/gone?uploadId=…&x-id=AbortMultipartUpload',
      ]);
      expect((await readAll(await store.get('gone'))).toString()).toBe('old');
    } finally {
      await proxy.stop();
    }
  });

  it('probes a working bucket and leaves nothing behind', async () => {
    const store = track(open({ prefix: `probe-${randomUUID().slice(0, 8)}` }));
    await probeBlobStore(store);
    const left: string[] = [];
    for await (const k of store.list('')) left.push(k);
    expect(left).toEqual([]);
  });

  it('names a missing bucket on every operation, stat included (a HEAD has no error body)', async () => {
    const store = track(open({ bucket: 'no-such-bucket' }));
    const checks: Array<() => Promise<unknown>> = [
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
    for (const check of checks) {
      const err = await check().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BlobStoreUnavailableError);
      expect(err).toMatchObject({
        reason: 'bucket_missing',
        status: 503,
        message: "bucket 'no-such-bucket' does not exist",
      });
    }
  });

  it('rejects a list prefix that is not a key prefix', async () => {
    const store = track(open());
    const keys = async () => {
      for await (const _ of store.list('../')) void _;
    };
    await expect(keys()).rejects.toBeInstanceOf(BadRequestError);
  });
});
