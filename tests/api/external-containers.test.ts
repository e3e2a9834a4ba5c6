/**
 * Containers on external object storage (docs/interface-notes.md, External containers; decisions §28–29): a
 * recording into an Amazon-type (s3rver), a Microsoft-type (Azurite) and a Google-type (a local
 * fake of the JSON API) container lands in that bucket, looked at with the adapters, not through Patchbay; Download
 * Data and the public file
 * server (whole, Range, `f=mp3`) return its bytes; deleting the file deletes the object. Create and
 * update probe the storage (422 naming external_attributes); a store gone on read is a 503; the
 * credentials appear in no response, no log line and no stored file in clear. One instance of its
 * own, logging at debug, so its whole output can be searched.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expectErrorBody, mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { storedTexts } from '../harness/stores';
import { tone } from '../support/media';
import { until } from '../support/poll';
import {
  azureContainer,
  bytesOf,
  gcsBucket,
  keysOf,
  s3Bucket,
  startAzurite,
  startFakeGcs,
  startS3rver,
  DEV_ACCOUNT,
  DEV_KEY,
  type AzuriteHandle,
  type FakeGcs,
  type S3rverHandle,
} from '../support/object-stores';
import type { BlobStore } from '@patchbay/platform';
import type { ApiJson } from '../support/api-json';

const API = '/core/v2';
const S3_SECRET = `s3-secret-${randomUUID()}`;
/** s3rver knows one access key id (it checks the id, not the signature): the secret can be anything. */
const S3_KEY_ID = 'S3RVER';

let pb: PatchbayInstance;
let s3: S3rverHandle;
let azurite: AzuriteHandle;
let azure: BlobStore;
let gcs: FakeGcs;
let partner: { auth: [string, string]; partner_sid: string };
const admin = (): [string, string] => ['Authorization', `Bearer ${pb.token}`];
const api = () => request(pb.origin);
const pub = () => request(pb.storageUrl);
const binary = <T extends request.Test>(req: T) =>
  req.buffer(true).parse((res, cb) => {
    const parts: Buffer[] = [];
    res.on('data', (b: Buffer) => parts.push(b));
    res.on('end', () => cb(null, Buffer.concat(parts)));
  });

beforeAll(async () => {
  [s3, azurite, gcs] = await Promise.all([
    startS3rver(['recordings', 'second']),
    startAzurite(),
    startFakeGcs({ media: 'ok' }),
  ]);
  azure = await azureContainer(azurite, 'calls');
  pb = await startPatchbay(mode(), { LOG_LEVEL: 'debug', THRESHOLD_SWEEP_INTERVAL: '1' });
  const login = `ext${Date.now().toString(36)}`;
  const created = await api()
    .post(`${API}/partners`)
    .set(...admin())
    .send({ name: 'external', login, password: 'partner-password-1', attributes: { max_containers: 10 } });
  const tok = await api()
    .post(`${API}/oauth/token`)
    .type('form')
    .send({ grant_type: 'password', username: login, password: 'partner-password-1' });
  partner = { partner_sid: created.body.partner_sid, auth: ['Authorization', `Bearer ${tok.body.access_token}`] };
}, 120_000);
afterAll(async () => {
  await Promise.all([...opened.map((b) => b.close?.()), azure?.close?.()]);
  await Promise.all([pb?.stop(), s3?.stop(), azurite?.stop(), gcs?.stop()]);
}, 60_000);

const opened: BlobStore[] = [];
/** The S3 bucket as the adapter sees it (closed after the suite). */
const s3Of = (bucket: string) => {
  const b = s3Bucket(s3, bucket);
  opened.push(b);
  return b;
};

const s3Attributes = (bucket = 'recordings', endpoint = s3.endpoint) => ({
  bucket,
  endpoint,
  prefix: 'pbx',
  credentials: { access_key_id: S3_KEY_ID, secret_access_key: S3_SECRET },
});
const azureAttributes = () => ({
  container: 'calls',
  endpoint: azurite.endpoint,
  credentials: { account_name: DEV_ACCOUNT, account_key: DEV_KEY },
});

async function createExternal(type: string, external_attributes: Record<string, unknown>) {
  return api()
    .post(`${API}/storage/containers`)
    .set(...partner.auth)
    .send({ type, external_attributes });
}

/** A recording through a FlexML endpoint whose container is `containerSid`. */
async function recordInto(containerSid: string, body = tone('wav', 1)) {
  const ep = await api()
    .post(`${API}/endpoints`)
    .set(...partner.auth)
    .send({ type: 'flexml', properties: { container_sid: containerSid } });
  expect(ep.status).toBe(200);
  const res = await api()
    .post(`${API}/media/recordings?endpoint_sid=${ep.body.endpoint_sid}`)
    .set(...admin())
    .set('Content-Type', 'audio/wav')
    .send(body);
  expect(res.status).toBe(201);
  return res.body as ApiJson;
}

/**
 * Google-type: the local fake of the JSON API, without credentials (with them the library would ask Google for a
 * token).
 */
const gcsAttributes = () => ({ bucket: 'media', endpoint: gcs.endpoint, prefix: 'rec' });

describe.each([
  ['aws_s3', () => s3Attributes(), () => s3Of('recordings'), 'pbx/', 2],
  ['azure_blob', azureAttributes, () => azure, '', 2],
  [
    'gcp_storage',
    gcsAttributes,
    () => {
      const b = gcsBucket(gcs, 'media');
      opened.push(b);
      return b;
    },
    'rec/',
    0,
  ],
])('a %s container', (type, attributes, bucket, prefix, masked) => {
  let container: ApiJson;
  let file: ApiJson;
  const recording = tone('wav', 2);

  test('created after a probe; credentials come back masked', async () => {
    const res = await createExternal(type, attributes());
    expect(res.status).toBe(200);
    container = res.body;
    expect(Object.values(container.external_attributes.credentials ?? {})).toEqual(Array(masked).fill('********'));
    expect(JSON.stringify(res.body)).not.toMatch(
      new RegExp(`${S3_SECRET}|${DEV_KEY.slice(0, 20).replace(/[+/]/g, '.')}`),
    );
  });

  test("a recording lands in the bucket, under the container's prefix", async () => {
    file = await recordInto(container.container_sid, recording);
    expect(file).toMatchObject({ container_sid: container.container_sid, file_bytes: recording.length, type: 'audio' });
    const key = `${prefix}files/${partner.partner_sid}/${file.file_sid}`;
    expect(await keysOf(bucket())).toContain(key);
    expect((await bytesOf(bucket(), key)).equals(recording)).toBe(true);
  });

  test('Download Data and the file server (whole, Range, f=mp3) return its bytes', async () => {
    const data = await binary(
      api()
        .get(`${API}/storage/files/${file.file_sid}/data`)
        .set(...partner.auth),
    );
    expect(data.status).toBe(200);
    expect((data.body as Buffer).equals(recording)).toBe(true);
    const whole = await binary(pub().get(`/f/${file.file_sid}`));
    expect(whole.status).toBe(200);
    expect((whole.body as Buffer).equals(recording)).toBe(true);
    const part = await binary(pub().get(`/f/${file.file_sid}`).set('Range', 'bytes=100-299'));
    expect(part.status).toBe(206);
    expect((part.body as Buffer).equals(recording.subarray(100, 300))).toBe(true);
    const mp3 = await binary(pub().get(`/f/${file.file_sid}?f=mp3`));
    expect(mp3.status).toBe(200);
    expect(mp3.headers['content-type']).toMatch(/audio\/mpeg/);
    const head = mp3.body as Buffer;
    expect(head.subarray(0, 3).toString('latin1') === 'ID3' || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)).toBe(
      true,
    );
    // The transcoded copy is Patchbay's own: nothing but the recording is in the bucket.
    expect((await keysOf(bucket())).filter((k) => k.includes(file.file_sid))).toEqual([
      `${prefix}files/${partner.partner_sid}/${file.file_sid}`,
    ]);
  }, 60_000);

  test('deleting the file deletes the object', async () => {
    expect(
      (
        await api()
          .delete(`${API}/storage/files/${file.file_sid}`)
          .set(...partner.auth)
      ).status,
    ).toBe(204);
    expect((await keysOf(bucket())).filter((k) => k.includes(file.file_sid))).toEqual([]);
  });
});

describe('checks on create and update', () => {
  test('a missing bucket, or fields of another type: 422 naming external_attributes, in plain words', async () => {
    const missing = await createExternal('aws_s3', s3Attributes('no-such-bucket'));
    expect(missing.status).toBe(422);
    expectErrorBody(missing.body);
    expect(missing.body.errors).toEqual([
      { field: 'external_attributes', message: 'the storage cannot be used: bucket not found', reference_sid: null },
    ]);
    expect(JSON.stringify(missing.body)).not.toContain(S3_SECRET);
    const wrong = await createExternal('aws_s3', { container: 'calls', endpoint: s3.endpoint });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'external_attributes',
      'external_attributes',
    ]);
    const closed = await createExternal('azure_blob', {
      ...azureAttributes(),
      endpoint: `http://127.0.0.1:1/${DEV_ACCOUNT}`,
    });
    expect(closed.status).toBe(422);
    // In a few fixed words, never the socket's or the provider's own text.
    expect(closed.body.errors[0].message).toBe('the storage cannot be used: could not connect');
  }, 60_000);

  test(
    'an update is probed too; sending back the masked credentials keeps ' + 'them; no uploads through the API',
    async () => {
      const created = await createExternal('aws_s3', s3Attributes());
      expect(created.status).toBe(200);
      const sid = created.body.container_sid;
      const kept = await api()
        .put(`${API}/storage/containers/${sid}`)
        .set(...partner.auth)
        .send({ ...created.body, name: 'renamed' });
      expect(kept.status).toBe(200);
      expect(kept.body.external_attributes.credentials.secret_access_key).toBe('********');
      const moved = await api()
        .patch(`${API}/storage/containers/${sid}`)
        .set(...partner.auth)
        .send({ external_attributes: { ...created.body.external_attributes, bucket: 'gone' } });
      expect(moved.status).toBe(422);
      expect(moved.body.errors[0].field).toBe('external_attributes');
      // Masked credentials were kept: the same bucket still probes fine, and a recording still lands.
      const f = await recordInto(sid);
      expect(await keysOf(s3Of('recordings'))).toContain(`pbx/files/${partner.partner_sid}/${f.file_sid}`);
      const up = await api()
        .post(`${API}/storage/files?container_sid=${sid}&name=a.txt`)
        .set(...partner.auth)
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from('a'));
      expect(up.body.errors[0].field).toBe('container_sid');
      expect(up.status).toBe(422);
    },
    60_000,
  );
});

describe('expiry', () => {
  test('a recording whose lifecycle expires is removed from the bucket by the threshold-worker', async () => {
    const c = await api()
      .post(`${API}/storage/containers`)
      .set(...partner.auth)
      .send({
        type: 'aws_s3',
        external_attributes: s3Attributes(),
        default_file_lifecycle_action: 'delete',
        default_file_lifecycle_ttl: 1,
      });
    expect(c.status).toBe(200);
    const f = await recordInto(c.body.container_sid);
    expect(f.lifecycle_action).toBe('delete');
    const key = `pbx/files/${partner.partner_sid}/${f.file_sid}`;
    expect(await keysOf(s3Of('recordings'))).toContain(key);
    await until('the expired recording to be removed', 30_000, async () =>
      (
        await api()
          .get(`${API}/storage/files/${f.file_sid}`)
          .set(...partner.auth)
      ).status === 404
        ? true
        : undefined,
    );
    expect(await keysOf(s3Of('recordings'))).not.toContain(key);
  }, 60_000);
});

describe('the container limit', () => {
  test('external containers do not count toward it', async () => {
    const login = `lim${Date.now().toString(36)}`;
    await api()
      .post(`${API}/partners`)
      .set(...admin())
      .send({ name: 'limit', login, password: 'partner-password-1' });
    const tok = await api()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: login, password: 'partner-password-1' });
    const auth: [string, string] = ['Authorization', `Bearer ${tok.body.access_token}`];
    for (let i = 0; i < 3; i++)
      expect(
        (
          await api()
            .post(`${API}/storage/containers`)
            .set(...auth)
            .send({ type: 'aws_s3', external_attributes: s3Attributes() })
        ).status,
      ).toBe(200);
    // The default container and one more internal one: the limit of 2 is reached only now.
    expect(
      (
        await api()
          .post(`${API}/storage/containers`)
          .set(...auth)
          .send({})
      ).status,
    ).toBe(200);
    expect(
      (
        await api()
          .post(`${API}/storage/containers`)
          .set(...auth)
          .send({})
      ).status,
    ).toBe(422);
  }, 60_000);
});

describe('a store that becomes unreachable', () => {
  test('reads are a quick 503 with the error body, never a hang or a 500; its files can still be deleted', async () => {
    const lost = await startS3rver(['gone-later']);
    const c = await createExternal('aws_s3', {
      bucket: 'gone-later',
      endpoint: lost.endpoint,
      credentials: { access_key_id: S3_KEY_ID, secret_access_key: S3_SECRET },
    });
    expect(c.status).toBe(200);
    const f = await recordInto(c.body.container_sid);
    await lost.stop();
    const started = Date.now();
    const data = await api()
      .get(`${API}/storage/files/${f.file_sid}/data`)
      .set(...partner.auth);
    expect(data.status).toBe(503);
    expectErrorBody(data.body);
    // Fixed words: never the socket's error ("connection refused") or the provider's code.
    expect(data.body.message).toBe('the object storage could not be reached; try again later');
    const served = await pub().get(`/f/${f.file_sid}`);
    expect(served.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(15_000);
    // Deleting its file still works (the object is deleted by a later sweep, once the store answers).
    expect(
      (
        await api()
          .delete(`${API}/storage/files/${f.file_sid}`)
          .set(...partner.auth)
      ).status,
    ).toBe(204);
    expect(
      (
        await api()
          .get(`${API}/storage/files/${f.file_sid}`)
          .set(...partner.auth)
      ).status,
    ).toBe(404);
  }, 60_000);
});

describe('credentials', () => {
  test('are in no log line and in no stored file or document in clear', async () => {
    const out = pb.output() + pb.startupOutput;
    expect(out.length).toBeGreaterThan(0);
    expect(out).toContain('recording stored');
    for (const secret of [S3_SECRET, DEV_KEY]) {
      expect(out.includes(secret)).toBe(false);
      for (const r of await storedTexts(pb))
        expect({ where: r.where, leaks: r.text.includes(secret) }).toEqual({ where: r.where, leaks: false });
    }
  });
});
