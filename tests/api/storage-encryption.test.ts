/**
 * Encrypted recordings (docs/interface-notes.md §20, decisions §43): a partner's public
 * keys at /storage/encryption_keys, a container naming them, and every file stored into it —
 * raw and multipart uploads, a recording, an upload-time transcode — stored as an age file that
 * Debian's `age -d` decrypts, with the age identity and with the RSA private key, byte-identical
 * to what was sent (or, transcoded, to a file of the target format). No plaintext is found in the
 * blob store (directory, GridFS or S3, seen through the port), the data directory or the
 * transcoder's scratch. `f=` and media playback of an encrypted file are 409; a key in use cannot
 * be deleted; another partner can neither read nor name the keys.
 */
import crypto from 'node:crypto';
import request from 'supertest';
import { API, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { instanceBlobs, type InstanceBlobs } from '../harness/stores';
import { ageDecrypt, filesContaining, makePartnerKeys, type PartnerKeys } from '../support/age-keys';
import { uniqueTone } from '../support/media';
import { endpoint, play, record } from '../support/media-plane';
import { createContainer, uploadMultipart, uploadRaw } from '../support/storage';
import type { ApiJson } from '../support/api-json';

let a: TestPartner;
let b: TestPartner;
let keys: PartnerKeys;
let blobs: InstanceBlobs;
let ageKey: ApiJson;
let rsaKey: ApiJson;
let sealed: ApiJson;

const binary = <T extends request.Test>(req: T) =>
  req.buffer(true).parse((res, cb) => {
    const parts: Buffer[] = [];
    res.on('data', (x: Buffer) => parts.push(x));
    res.on('end', () => cb(null, Buffer.concat(parts)));
  });

const createKey = (p: TestPartner, body: Record<string, unknown>) =>
  http()
    .post(`${API}/storage/encryption_keys`)
    .set(...p.auth)
    .send(body);

/** The bytes as stored, by Download Data and by the public file server (they must be the same). */
async function servedBytes(p: TestPartner, f: ApiJson): Promise<Buffer> {
  const data = await binary(
    http()
      .get(`${API}/storage/files/${f.file_sid}/data`)
      .set(...p.auth),
  );
  expect(data.status).toBe(200);
  const published = await binary(request(instance().storageUrl).get(new URL(f.publish_uri as string).pathname));
  expect(published.status).toBe(200);
  expect(Buffer.compare(published.body as Buffer, data.body as Buffer)).toBe(0);
  return data.body as Buffer;
}

/** Both identities decrypt `stored` with the stock tool; the plaintext is returned (the same from each). */
async function decryptWithBoth(stored: Buffer): Promise<Buffer> {
  const viaAge = await ageDecrypt(stored, keys.ageIdentityFile);
  const viaRsa = await ageDecrypt(stored, keys.rsaPrivateFile);
  expect(Buffer.compare(viaAge, viaRsa)).toBe(0);
  return viaAge;
}

/** No blob, no file of the data directory and nothing in the transcoder's scratch holds `marker`. */
async function expectNoPlaintext(marker: Buffer): Promise<void> {
  for (const key of await blobs.keys('')) {
    const chunks: Buffer[] = [];
    for await (const c of await blobs.store.get(key)) chunks.push(c as Buffer);
    expect({ key, found: Buffer.concat(chunks).includes(marker) }).toEqual({ key, found: false });
  }
  expect(filesContaining(instance().dataDir, marker)).toEqual([]);
  expect(filesContaining(instance().scratchDir, marker)).toEqual([]);
}

beforeAll(async () => {
  keys = makePartnerKeys();
  [a, b] = await Promise.all([newPartner({ attributes: { max_containers: 10 } }), newPartner()]);
  blobs = await instanceBlobs(instance());
  ageKey = (await createKey(a, { name: 'primary', public_key: keys.ageRecipient })).body;
  rsaKey = (await createKey(a, { name: 'offline', public_key: keys.rsaPublicKey })).body;
  sealed = await createContainer(a, {
    name: 'sealed',
    encryption_key_sids: [ageKey.encryption_key_sid, rsaKey.encryption_key_sid],
  });
}, 60000);
afterAll(async () => {
  keys.cleanup();
  await blobs.close();
});

describe('keys', () => {
  test('an age key and an SSH RSA key: 201, typed and fingerprinted; the container names both', () => {
    expect(Object.keys(ageKey)).toEqual([
      'date_created',
      'encryption_key_sid',
      'fingerprint',
      'key_type',
      'name',
      'partner_sid',
      'public_key',
    ]);
    expect(ageKey).toMatchObject({ key_type: 'age-x25519', public_key: keys.ageRecipient, partner_sid: a.partner_sid });
    expect(ageKey.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(rsaKey).toMatchObject({ key_type: 'ssh-rsa', name: 'offline' });
    expect(sealed.encryption_key_sids).toEqual([ageKey.encryption_key_sid, rsaKey.encryption_key_sid]);
  });

  test(
    'anything else is a 422 naming public_key: garbage, an ed25519 key, a ' + 'secret key, RSA under 2048 bits',
    async () => {
      const ed = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl x@y';
      for (const public_key of ['not a key', ed, 'AGE-SECRET-KEY-1QQQQ']) {
        const res = await createKey(a, { public_key });
        expect(res.status).toBe(422);
        expectErrorBody(res.body);
        expect(res.body.errors[0].field).toBe('public_key');
      }
      const small = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
      const blob = sshRsaBlob(small.e as string, small.n as string);
      const res = await createKey(a, { public_key: `ssh-rsa ${blob.toString('base64')} small` });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: 'public_key' });
      expect(res.body.errors[0].message).toMatch(/1024/);
      expect((await createKey(a, { name: 'x' })).status).toBe(400);
    },
  );

  test('keys that can never encrypt are a 422 naming public_key: all-zero age, even RSA modulus', async () => {
    const zero = 'age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq5cu47z';
    const real = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
    const n = Buffer.from(real.n as string, 'base64url');
    n[n.length - 1] &= 0xfe;
    const even = sshRsaBlob(real.e as string, n.toString('base64url'));
    for (const [public_key, why] of [
      [zero, /low-order/],
      [`ssh-rsa ${even.toString('base64')} even`, /modulus is even/],
    ] as const) {
      const res = await createKey(a, { public_key });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: 'public_key', message: expect.stringMatching(why) });
    }
  });

  test('list, filter, get, rename; the key itself cannot change', async () => {
    const list = await http()
      .get(`${API}/storage/encryption_keys`)
      .query({ filter: 'key_type eq "ssh-rsa"' })
      .set(...a.auth);
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: ApiJson) => k.encryption_key_sid)).toEqual([rsaKey.encryption_key_sid]);
    const renamed = await http()
      .patch(`${API}/storage/encryption_keys/${rsaKey.encryption_key_sid}`)
      .set(...a.auth)
      .send({ name: 'vault' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'vault', public_key: rsaKey.public_key });
    const changed = await http()
      .patch(`${API}/storage/encryption_keys/${rsaKey.encryption_key_sid}`)
      .set(...a.auth)
      .send({ public_key: keys.ageRecipient });
    expect(changed.status).toBe(422);
    expect(changed.body.errors[0].field).toBe('public_key');
  });

  test('partner B can neither read nor name A’s keys; A cannot name an unknown key', async () => {
    const get = await http()
      .get(`${API}/storage/encryption_keys/${ageKey.encryption_key_sid}`)
      .set(...b.auth);
    expect(get.status).toBe(404);
    const list = await http()
      .get(`${API}/storage/encryption_keys`)
      .set(...b.auth);
    expect(list.body.items).toEqual([]);
    const del = await http()
      .delete(`${API}/storage/encryption_keys/${ageKey.encryption_key_sid}`)
      .set(...b.auth);
    expect(del.status).toBe(404);
    const named = await http()
      .post(`${API}/storage/containers`)
      .set(...b.auth)
      .send({ encryption_key_sids: [ageKey.encryption_key_sid] });
    expect(named.status).toBe(422);
    expect(named.body.errors[0]).toMatchObject({
      field: 'encryption_key_sids',
      reference_sid: ageKey.encryption_key_sid,
    });
    const unknown = await http()
      .patch(`${API}/storage/containers/${sealed.container_sid}`)
      .set(...a.auth)
      .send({ encryption_key_sids: [crypto.randomUUID()] });
    expect(unknown.status).toBe(422);
  });

  test('a PUT without encryption_key_sids keeps the keys; with them, sets them', async () => {
    const c = await createContainer(a, { name: 'put', encryption_key_sids: [ageKey.encryption_key_sid] });
    const { encryption_key_sids: _keys, ...rest } = c;
    const kept = await http()
      .put(`${API}/storage/containers/${c.container_sid}`)
      .set(...a.auth)
      .send({ ...rest, name: 'put again' });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ name: 'put again', encryption_key_sids: [ageKey.encryption_key_sid] });
    const cleared = await http()
      .put(`${API}/storage/containers/${c.container_sid}`)
      .set(...a.auth)
      .send({ ...rest, encryption_key_sids: [] });
    expect(cleared.body.encryption_key_sids).toEqual([]);
  });

  test('a key a container names cannot be deleted (409); once no container names it, it can', async () => {
    const key = (await createKey(a, { public_key: keys.ageRecipient })).body;
    const c = await createContainer(a, { encryption_key_sids: [key.encryption_key_sid] });
    const refused = await http()
      .delete(`${API}/storage/encryption_keys/${key.encryption_key_sid}`)
      .set(...a.auth);
    expect(refused.status).toBe(409);
    expectErrorBody(refused.body);
    await http()
      .patch(`${API}/storage/containers/${c.container_sid}`)
      .set(...a.auth)
      .send({ encryption_key_sids: [] })
      .expect(200);
    const done = await http()
      .delete(`${API}/storage/encryption_keys/${key.encryption_key_sid}`)
      .set(...a.auth);
    expect(done.status).toBe(204);
  });
});

describe('files stored encrypted', () => {
  const marked = (label: string) => {
    const marker = Buffer.from(`PLAINTEXT-MARKER-${label}-${crypto.randomUUID()}`);
    return { marker, bytes: Buffer.concat([crypto.randomBytes(70000), marker, crypto.randomBytes(100000)]) };
  };

  const expectEncryption = (f: ApiJson, plaintextBytes: number) => {
    expect(f.encryption).toMatchObject({
      format: 'age-v1',
      encryption_key_sids: [ageKey.encryption_key_sid, rsaKey.encryption_key_sid],
      plaintext_bytes: plaintextBytes,
    });
    const e = f.encryption as { header_bytes: number };
    expect(f.file_bytes).toBe(
      e.header_bytes + 16 + plaintextBytes + 16 * Math.max(1, Math.ceil(plaintextBytes / 65536)),
    );
  };

  test('raw upload: age -d decrypts what Download Data and the file server serve, with either key', async () => {
    const { marker, bytes } = marked('raw');
    const res = await uploadRaw(a, { container_sid: sealed.container_sid, name: 'raw.bin' }, bytes);
    expect(res.status).toBe(201);
    expectEncryption(res.body, bytes.length);
    const stored = await servedBytes(a, res.body);
    expect(stored.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
    expect(Buffer.compare(await decryptWithBoth(stored), bytes)).toBe(0);
    await expectNoPlaintext(marker);
  });

  test('multipart upload: the same', async () => {
    const { marker, bytes } = marked('multipart');
    const res = await uploadMultipart(a, { container_sid: sealed.container_sid, name: 'm.bin' }, bytes);
    expect(res.status).toBe(201);
    expectEncryption(res.body, bytes.length);
    expect(Buffer.compare(await decryptWithBoth(await servedBytes(a, res.body)), bytes)).toBe(0);
    await expectNoPlaintext(marker);
  });

  test('a plain container beside it still stores files as they come', async () => {
    const plain = await createContainer(a, {});
    const res = await uploadRaw(a, { container_sid: plain.container_sid, name: 'p.txt' }, 'hello');
    expect(res.status).toBe(201);
    expect(res.body.encryption).toBeNull();
    expect(res.body.file_bytes).toBe(5);
  });

  test('a recording: probed on the plaintext, stored encrypted, playback 409', async () => {
    const wav = uniqueTone(2);
    const vm = await endpoint(a, 'flexml', { container_sid: sealed.container_sid });
    const res = await record({ endpoint_sid: vm.endpoint_sid }, wav);
    expect(res.status).toBe(201);
    expect(res.body.container_sid).toBe(sealed.container_sid);
    expect(res.body.content_duration).toBeCloseTo(2, 0);
    expectEncryption(res.body, wav.length);
    expect(Buffer.compare(await decryptWithBoth(await servedBytes(a, res.body)), wav)).toBe(0);
    await expectNoPlaintext(wav.subarray(wav.length / 2, wav.length / 2 + 64));
    const playback = await play({ endpoint_sid: vm.endpoint_sid, file_sid: res.body.file_sid as string });
    expect(playback.status).toBe(409);
  });

  test('upload-time transcoding: done before the 201, stored encrypted, decrypts to the target format', async () => {
    const wav = uniqueTone(2);
    const res = await uploadRaw(
      a,
      { container_sid: sealed.container_sid, name: 'call.wav', type: 'audio', desired_format: 'mp3' },
      wav,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      content_format: 'mp3',
      mime_type: 'audio/mpeg',
      content_transcoding_progress: 100,
    });
    const plain = await decryptWithBoth(await servedBytes(a, res.body));
    expectEncryption(res.body, plain.length);
    // An mp3: ID3 tag or an MPEG audio frame sync.
    expect(plain.subarray(0, 3).toString() === 'ID3' || (plain[0] === 0xff && (plain[1] & 0xe0) === 0xe0)).toBe(true);
    await expectNoPlaintext(wav.subarray(wav.length / 2, wav.length / 2 + 64));
    await expectNoPlaintext(plain.subarray(plain.length / 2, plain.length / 2 + 64));
  });

  test('f= on an encrypted file is 409 naming f; ranges serve the stored bytes', async () => {
    const res = await uploadRaw(a, { container_sid: sealed.container_sid, name: 'r.bin' }, crypto.randomBytes(1000));
    const pathname = new URL(res.body.publish_uri as string).pathname;
    const pub = request(instance().storageUrl);
    const f = await pub.get(`${pathname}?f=mp3`);
    expect(f.status).toBe(409);
    expectErrorBody(f.body);
    expect(f.body.errors[0]).toMatchObject({ field: 'f', message: 'the file is encrypted' });
    const br = await pub.get(`${pathname}?br=64`);
    expect(br.status).toBe(409);
    expect(br.body.errors[0].field).toBe('f');
    const whole = await binary(pub.get(pathname));
    const range = await binary(pub.get(pathname).set('Range', 'bytes=10-99'));
    expect(range.status).toBe(206);
    expect(Buffer.compare(range.body as Buffer, (whole.body as Buffer).subarray(10, 100))).toBe(0);
  });

  test('multipart with data before file_object is refused for a partner that encrypts (nothing stored)', async () => {
    const res = await http()
      .post(`${API}/storage/files`)
      .set(...a.auth)
      .attach('data', Buffer.from('data first'), 'x.bin')
      .field('file_object', JSON.stringify({ container_sid: sealed.container_sid }));
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('file_object');
  });
});

/** The OpenSSH wire form of an RSA public key from its JWK exponent and modulus. */
function sshRsaBlob(e: string, n: string): Buffer {
  const mpint = (b64url: string) => {
    let v = Buffer.from(b64url, 'base64url');
    if (v[0] & 0x80) v = Buffer.concat([Buffer.from([0]), v]);
    return v;
  };
  const str = (buf: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(buf.length);
    return Buffer.concat([len, buf]);
  };
  return Buffer.concat([str(Buffer.from('ssh-rsa')), str(mpint(e)), str(mpint(n))]);
}
