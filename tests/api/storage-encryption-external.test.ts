/**
 * Encrypted recordings into an external Amazon-type container (s3rver): the object in the bucket,
 * read with the S3 adapter rather than through Patchbay, is the age file — `age -d` decrypts it,
 * with either key, to the recording sent, byte-identical to what Download Data and the public file
 * server return — and the recording's PCM is nowhere in the bucket (decisions §43).
 */
import request from 'supertest';
import type { BlobStore } from '@patchbay/platform';
import { API, adminAuth, http, instance, newPartner, type TestPartner } from '../harness/api';
import { ageDecrypt, makePartnerKeys, type PartnerKeys } from '../support/age-keys';
import { tone } from '../support/media';
import { endpoint, record } from '../support/media-plane';
import { bytesOf, keysOf, s3Bucket, startS3rver, type S3rverHandle } from '../support/object-stores';

let s3: S3rverHandle;
let bucket: BlobStore;
let keys: PartnerKeys;
let p: TestPartner;

beforeAll(async () => {
  [s3, p] = await Promise.all([startS3rver(['sealed-calls']), newPartner()]);
  bucket = s3Bucket(s3, 'sealed-calls');
  keys = makePartnerKeys();
}, 60_000);
afterAll(async () => {
  keys?.cleanup();
  await bucket?.close?.();
  await s3?.stop();
});

const binary = <T extends request.Test>(req: T) =>
  req.buffer(true).parse((res, cb) => {
    const parts: Buffer[] = [];
    res.on('data', (b: Buffer) => parts.push(b));
    res.on('end', () => cb(null, Buffer.concat(parts)));
  });

test('a recording into an encrypted aws_s3 container is an age file in the bucket; age -d decrypts it', async () => {
  const sids: string[] = [];
  for (const public_key of [keys.ageRecipient, keys.rsaPublicKey]) {
    const k = await http()
      .post(`${API}/storage/encryption_keys`)
      .set(...p.auth)
      .send({ public_key });
    expect(k.status).toBe(201);
    sids.push(k.body.encryption_key_sid as string);
  }
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
  expect(stored.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
  expect(stored.includes(wav.subarray(wav.length / 2, wav.length / 2 + 64))).toBe(false);
  for (const identity of [keys.ageIdentityFile, keys.rsaPrivateFile])
    expect(Buffer.compare(await ageDecrypt(stored, identity), wav)).toBe(0);
  const data = await binary(
    http()
      .get(`${API}/storage/files/${res.body.file_sid}/data`)
      .set(...p.auth),
  );
  expect(Buffer.compare(data.body as Buffer, stored)).toBe(0);
  const pub = await binary(request(instance().storageUrl).get(new URL(res.body.publish_uri as string).pathname));
  expect(Buffer.compare(pub.body as Buffer, stored)).toBe(0);
});
