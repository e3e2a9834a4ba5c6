/**
 * What S3BlobStore makes of failures, against servers that fail on purpose: S3's own error answers
 * (s3rver checks neither signatures nor policies), a closed port, a server that never answers, and
 * options or URLs that cannot work.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { BlobStoreUnavailableError, probeBlobStore } from '@patchbay/platform';
import { bufferStream, generated } from '@patchbay/platform/test/blob-store/blob-test-kit';
import { parseS3Url, S3BlobStore, type S3BlobStoreOptions } from '../src';
import { startS3ErrorServer } from './s3-fake-server';

const SECRET = 'wJalrXUtnFEMI-not-a-real-secret';
const credentials = { access_key_id: 'AKIDEXAMPLE', secret_access_key: SECRET };
const open = (opts: Partial<S3BlobStoreOptions>) =>
  new S3BlobStore({ bucket: 'media', credentials, maxAttempts: 1, allowPrivateAddresses: true, ...opts });

async function failure(op: () => Promise<unknown>): Promise<BlobStoreUnavailableError> {
  const err = await op().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BlobStoreUnavailableError);
  expect((err as Error).message).not.toContain(SECRET);
  return err as BlobStoreUnavailableError;
}

describe('S3BlobStore error translation', () => {
  it.each([
    [403, 'SignatureDoesNotMatch', 'bad_credentials', 'the storage rejected the signature: check secret_access_key'],
    [
      403,
      'InvalidAccessKeyId',
      'bad_credentials',
      'the storage does not know this access_key_id: check access_key_id and secret_access_key',
    ],
    [
      403,
      'AccessDenied',
      'access_denied',
      "access denied to bucket 'media': check access_key_id, secret_access_key and the bucket's policy",
    ],
    [
      301,
      'PermanentRedirect',
      'invalid_config',
      "bucket 'media' is not in region 'us-east-1': set region to the bucket's region",
    ],
    [503, 'SlowDown', 'provider_error', 'the storage failed (HTTP 503 SlowDown)'],
  ])('answers %i %s: %s', async (status, code, reason, message) => {
    const fake = await startS3ErrorServer(status, code);
    const store = open({ endpoint: fake.endpoint });
    try {
      for (const op of [() => probeBlobStore(store), () => store.get('k'), () => store.delete('k')]) {
        expect(await failure(op)).toMatchObject({ reason, message, status: 503 });
      }
      // A HEAD answer has no body: the status alone must say enough.
      if (status === 403) expect(await failure(() => store.stat('k'))).toMatchObject({ reason: 'access_denied' });
    } finally {
      await store.close();
      await fake.stop();
    }
  });

  it("makes a storage failure mid-upload the put's error and stops reading the body", async () => {
    const fake = await startS3ErrorServer(503, 'ServiceUnavailable');
    const store = open({ endpoint: fake.endpoint, partSize: 5 * 1024 * 1024 });
    try {
      const body = generated(64 * 1024 * 1024, 1).stream();
      expect(await failure(() => store.put('k', body))).toMatchObject({
        reason: 'provider_error',
        message: 'the storage failed (HTTP 503 ServiceUnavailable)',
      });
      expect(body.destroyed).toBe(true);
      expect(body.readableEnded).toBe(false);
    } finally {
      await store.close();
      await fake.stop();
    }
  });

  it('sends unsigned requests without credentials, never borrowing them from the environment', async () => {
    const fake = await startS3ErrorServer(403, 'AccessDenied');
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'AKIDFROMENV';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret-from-env';
    const store = new S3BlobStore({
      bucket: 'media',
      endpoint: fake.endpoint,
      maxAttempts: 1,
      allowPrivateAddresses: true,
    });
    try {
      await failure(() => store.get('k'));
      expect(fake.seen).toHaveLength(1);
      expect(fake.seen[0]!.headers.authorization).toBeUndefined();
      expect(fake.seen[0]!.url).toBe('/media/k?x-id=GetObject');
    } finally {
      process.env.AWS_ACCESS_KEY_ID = saved.id;
      process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      await store.close();
      await fake.stop();
    }
  });

  it('turns a closed port into "unreachable", naming the endpoint, at once', async () => {
    const store = open({ endpoint: 'http://127.0.0.1:1' });
    const started = Date.now();
    for (const op of [
      () => store.stat('k'),
      () => store.get('k', { start: 0, end: 9 }),
      () => store.put('k', bufferStream('x')),
      () => probeBlobStore(store),
    ]) {
      expect(await failure(op)).toMatchObject({
        reason: 'unreachable',
        message: 'cannot reach http://127.0.0.1:1: connection refused',
      });
    }
    expect(Date.now() - started).toBeLessThan(3000);
    await store.close();
  });

  it('turns a server that accepts but never answers into "timeout" after the idle limit', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => {
      sockets.add(s);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const store = open({ endpoint, idleTimeoutMs: 300 });
    try {
      const started = Date.now();
      expect(await failure(() => store.stat('k'))).toMatchObject({
        reason: 'timeout',
        message: `${endpoint} did not answer in time`,
      });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await store.close();
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it('refuses options that cannot work before any request, without echoing secrets', () => {
    const bad: Array<[Partial<S3BlobStoreOptions>, RegExp]> = [
      [{ endpoint: 'not a url' }, /endpoint 'not a url' is not a URL/],
      [{ endpoint: 'ftp://host' }, /not an http or https URL/],
      [{ endpoint: 'http://user:hunter2@host' }, /must not contain credentials/],
      [{ prefix: 'a/../b' }, /prefix 'a\/..\/b' is not a valid key prefix/],
      [{ region: 'EU WEST' }, /region 'EU WEST' is not a region name/],
      [
        { credentials: { access_key_id: 'AKIA', secret_access_key: '' } },
        /need both access_key_id and secret_access_key/,
      ],
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
      expect((err as Error).message).not.toContain('hunter2');
    }
  });
});

describe('parseS3Url', () => {
  it('reads bucket, prefix, endpoint and region', () => {
    expect(parseS3Url('s3://media/patchbay/blobs?endpoint=http://127.0.0.1:9000&region=eu-west-1')).toEqual({
      bucket: 'media',
      prefix: 'patchbay/blobs',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
    });
    expect(parseS3Url('s3://media')).toEqual({ bucket: 'media' });
    expect(parseS3Url('s3://media/?endpoint=https%3A%2F%2Fminio.internal%3A9000')).toEqual({
      bucket: 'media',
      endpoint: 'https://minio.internal:9000',
    });
  });

  it('gives options the store accepts', () => {
    const opts = parseS3Url('s3://media/own?endpoint=http://127.0.0.1:9000');
    expect(() => new S3BlobStore({ ...opts, credentials })).not.toThrow();
  });

  it.each([
    ['not a url', /is not a URL/],
    ['http://media/x', /is not an s3:\/\/ URL/],
    ['s3://key:secret@media/x', /must not carry credentials/],
    ['s3:///x', /names no bucket/],
    ['s3://media?endpoint=http://h&acl=public', /unknown parameter 'acl'/],
  ])('refuses %s', (url, message) => {
    let err: unknown;
    try {
      parseS3Url(url);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ reason: 'invalid_config', message: expect.stringMatching(message) });
    expect((err as Error).message).not.toContain('secret');
  });
});
