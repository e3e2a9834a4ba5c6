/**
 * Encrypted files in external containers (decisions §43): the object in the bucket, read with the
 * adapter rather than through Patchbay, is the age file — `age -d` decrypts it, with either key, to
 * what was sent, byte-identical to what Download Data and the public file server return — and the
 * plaintext is nowhere in the bucket. A recording (the only way files reach an external container)
 * into an Amazon-type (s3rver), a Microsoft-type (Azurite) and a Google-type (the local fake of the
 * JSON API) container.
 */
import request from 'supertest';
import type { BlobStore } from '@patchbay/platform';
import { API, adminAuth, http, instance, newPartner, type TestPartner } from '../harness/api';
import { ageDecrypt, makePartnerKeys, type PartnerKeys } from '../support/age-keys';
import { tone, uniqueTone } from '../support/media';
import { endpoint, record } from '../support/media-plane';
import {
  DEV_ACCOUNT,
  DEV_KEY,
  azureContainer,
  bytesOf,
  gcsBucket,
  keysOf,
  s3Bucket,
  startAzurite,
  startFakeGcs,
  startS3rver,
  type AzuriteHandle,
  type FakeGcs,
  type S3rverHandle,
} from '../support/object-stores';
import type { ApiJson } from '../support/api-json';

let s3: S3rverHandle;
let azurite: AzuriteHandle;
let gcs: FakeGcs;
let bucket: BlobStore;
let azure: BlobStore;
let google: BlobStore;
let keys: PartnerKeys;
let p: TestPartner;

beforeAll(async () => {
  [s3, azurite, gcs, p] = await Promise.all([
    startS3rver(['sealed-calls']),
    startAzurite(),
    startFakeGcs({ 'sealed-media': 'ok' }),
    newPartner({ attributes: { max_containers: 10 } }),
  ]);
  bucket = s3Bucket(s3, 'sealed-calls');
  azure = await azureContainer(azurite, 'sealed-blobs');
  google = gcsBucket(gcs, 'sealed-media');
  keys = makePartnerKeys();
}, 60_000);
afterAll(async () => {
  keys?.cleanup();
  await Promise.all([bucket?.close?.(), azure?.close?.(), google?.close?.()]);
  await Promise.all([s3?.stop(), azurite?.stop(), gcs?.stop()]);
}, 60_000);

const binary = <T extends request.Test>(req: T) =>
  req.buffer(true).parse((res, cb) => {
    const parts: Buffer[] = [];
    res.on('data', (b: Buffer) => parts.push(b));
    res.on('end', () => cb(null, Buffer.concat(parts)));
  });

/** The partner's two keys (age and RSA), registered once and named by every container here. */
let registered: string[] | undefined;
async function keySids(): Promise<string[]> {
  if (registered) return registered;
  const sids: string[] = [];
  for (const public_key of [keys.ageRecipient, keys.rsaPublicKey]) {
    const k = await http()
      .post(`${API}/storage/encryption_keys`)
      .set(...p.auth)
      .send({ public_key });
    expect(k.status).toBe(201);
    sids.push(k.body.encryption_key_sid as string);
  }
  registered = sids;
  return sids;
}

/** The stored object decrypts with both keys to `plaintext`, and is what Download Data and the file server serve. */
async function expectServedAndDecryptable(file: ApiJson, stored: Buffer, plaintext: Buffer) {
  expect(stored.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
  for (const identity of [keys.ageIdentityFile, keys.rsaPrivateFile])
    expect(Buffer.compare(await ageDecrypt(stored, identity), plaintext)).toBe(0);
  const data = await binary(
    http()
      .get(`${API}/storage/files/${file.file_sid}/data`)
      .set(...p.auth),
  );
  expect(Buffer.compare(data.body as Buffer, stored)).toBe(0);
  const pub = await binary(request(instance().storageUrl).get(new URL(file.publish_uri as string).pathname));
  expect(Buffer.compare(pub.body as Buffer, stored)).toBe(0);
}

test('a recording into an encrypted aws_s3 container is an age file in the bucket; age -d decrypts it', async () => {
  const sids = await keySids();
  const c = await http()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .send({
      type: 'aws_s3',
      encryption_key_sids: sids,
      external_attributes: {
        bucket: 'sealed-calls',
        endpoint: s3.endpoint,
        prefix: 'enc',
        credentials: { access_key_id: 'S3RVER', secret_access_key: 'any' },
      },
    });
  expect(c.status).toBe(200);
  const wav = tone('wav', 2);
  const ep = await endpoint(p, 'flexml', { container_sid: c.body.container_sid });
  const res = await record({ endpoint_sid: ep.endpoint_sid as string }, wav, { as: adminAuth() });
  expect(res.status).toBe(201);
  expect(res.body.encryption).toMatchObject({ encryption_key_sids: sids, plaintext_bytes: wav.length });
  const objects = await keysOf(bucket);
  expect(objects.filter((k) => !k.startsWith('enc/.patchbay'))).toHaveLength(1);
  const stored = await bytesOf(
    bucket,
    objects.find((k) => !k.startsWith('enc/.patchbay'))!,
  );
  expect(stored.includes(wav.subarray(wav.length / 2, wav.length / 2 + 64))).toBe(false);
  await expectServedAndDecryptable(res.body, stored, wav);
});

describe.each([
  [
    'azure_blob',
    () => ({
      container: 'sealed-blobs',
      endpoint: azurite.endpoint,
      prefix: 'enc',
      credentials: { account_name: DEV_ACCOUNT, account_key: DEV_KEY },
    }),
    () => azure,
  ],
  // The fake GCS without credentials (with them the library would ask Google for a token).
  ['gcp_storage', () => ({ bucket: 'sealed-media', endpoint: gcs.endpoint, prefix: 'enc' }), () => google],
])('an encrypted %s container', (type, attributes, store) => {
  test('a recording is an age file in the bucket, its PCM nowhere in it; age -d decrypts it', async () => {
    const c = await http()
      .post(`${API}/storage/containers`)
      .set(...p.auth)
      .send({ type, encryption_key_sids: await keySids(), external_attributes: attributes() });
    expect(c.status).toBe(200);
    // A tone of a frequency no other test uses (files reach an external container only as recordings): a slice of
    // its PCM from the middle is the plaintext marker searched for in every object of the bucket.
    const wav = uniqueTone(3);
    const marker = wav.subarray(wav.length / 2, wav.length / 2 + 64);
    const ep = await endpoint(p, 'flexml', { container_sid: c.body.container_sid });
    const res = await record({ endpoint_sid: ep.endpoint_sid as string }, wav, { as: adminAuth() });
    expect(res.status).toBe(201);
    expect(res.body.encryption).toMatchObject({ format: 'age-v1', plaintext_bytes: wav.length });
    const key = `enc/files/${p.partner_sid}/${res.body.file_sid}`;
    const objects = await keysOf(store());
    expect(objects).toContain(key);
    for (const k of objects)
      expect({ k, found: (await bytesOf(store(), k)).includes(marker) }).toEqual({ k, found: false });
    await expectServedAndDecryptable(res.body, await bytesOf(store(), key), wav);
  });
});
