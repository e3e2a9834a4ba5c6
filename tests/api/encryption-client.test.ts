/**
 * Reading encrypted files on the partner's side (docs/encryption.md): `pnpm patchbay files decrypt`
 * with an age identity and with an RSA private key — a whole file by SID, a downloaded age file on
 * disk, and plaintext ranges inside one chunk, across chunks and at the end, each equal to the
 * same slice of the original; and @patchbay/client's range reader fetches the header and only
 * the chunks that hold the range (Range requests recorded by the client's own fetch).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createPatchbayClient, data, type Schemas } from '@patchbay/client';
import { encryptedRangeReader, parseIdentities } from '@patchbay/client/src/encrypted';
import { API, http, instance, newPartner, type TestPartner } from '../harness/api';
import { makePartnerKeys, type PartnerKeys } from '../support/age-keys';
import { patchbay } from '../support/cli';
import { createContainer, uploadRaw } from '../support/storage';
import type { ApiJson } from '../support/api-json';

const CHUNK = 65536;
let p: TestPartner;
let keys: PartnerKeys;
let original: Buffer;
let file: ApiJson;

beforeAll(async () => {
  keys = makePartnerKeys();
  p = await newPartner();
  const sids: string[] = [];
  for (const public_key of [keys.ageRecipient, keys.rsaPublicKey]) {
    const res = await http()
      .post(`${API}/storage/encryption_keys`)
      .set(...p.auth)
      .send({ public_key });
    sids.push(res.body.encryption_key_sid as string);
  }
  const c = await createContainer(p, { encryption_key_sids: sids });
  original = crypto.randomBytes(5 * CHUNK + 1234);
  file = (await uploadRaw(p, { container_sid: c.container_sid, name: 'call.bin' }, original)).body;
}, 60000);
afterAll(() => keys.cleanup());

const cli = (...args: string[]) => patchbay('--token', p.token, 'files', 'decrypt', ...args);
const out = (name: string) => path.join(keys.dir, name);

test('a whole file by SID, with the age identity and with the RSA key', async () => {
  for (const identity of [keys.ageIdentityFile, keys.rsaPrivateFile]) {
    const target = out(`whole-${path.basename(identity)}`);
    const r = await cli(String(file.file_sid), '-i', identity, '-o', target);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Buffer.compare(fs.readFileSync(target), original)).toBe(0);
  }
});

test('a downloaded age file on disk (--input)', async () => {
  const stored = await http()
    .get(`${API}/storage/files/${file.file_sid}/data`)
    .set(...p.auth)
    .buffer(true)
    .parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });
  fs.writeFileSync(out('download.age'), stored.body as Buffer);
  const r = await cli('--input', out('download.age'), '-i', keys.ageIdentityFile, '-o', out('from-disk'));
  expect(r.code).toBe(0);
  expect(Buffer.compare(fs.readFileSync(out('from-disk')), original)).toBe(0);
});

test.each([
  // Negative offsets count from the end of the file (its size is known only once it is made).
  ['inside one chunk', 100, 5000],
  ['across chunks', CHUNK - 10, 3 * CHUNK + 10],
  ['at the end', -300, -1],
])('--range %s equals the same slice of the original', async (_label, start, end) => {
  const from = start < 0 ? original.length + start : start;
  const to = end < 0 ? original.length + end : end;
  const target = out(`range-${from}`);
  const r = await cli(String(file.file_sid), '-i', keys.rsaPrivateFile, '--range', `${from}-${to}`, '-o', target);
  expect(r.stderr).toBe('');
  expect(Buffer.compare(fs.readFileSync(target), original.subarray(from, to + 1))).toBe(0);
});

test('the client fetches the header and only the chunks that hold the range', async () => {
  const ranges: string[] = [];
  const pb = createPatchbayClient({
    baseUrl: instance().baseUrl,
    credentials: { token: p.token },
    fetch: (input, init) => {
      const range = new Headers(init?.headers).get('range');
      if (range) ranges.push(range);
      return fetch(input, init);
    },
  });
  // Asked without include_fields/exclude_fields: the whole File, not its Selection form.
  const typed = (await data(
    pb.api.GET('/storage/files/{file_sid}', { params: { path: { file_sid: String(file.file_sid) } } }),
  )) as Schemas['File'];
  const enc = typed.encryption!;
  const reader = await encryptedRangeReader(pb, typed, parseIdentities(fs.readFileSync(keys.ageIdentityFile, 'utf8')));
  const bytes = await reader.read(2 * CHUNK + 5, 3 * CHUNK + 5);
  expect(Buffer.compare(bytes, original.subarray(2 * CHUNK + 5, 3 * CHUNK + 6))).toBe(0);
  const payload = enc.header_bytes + 16;
  const sealed = CHUNK + 16;
  expect(ranges).toEqual([`bytes=0-${payload - 1}`, `bytes=${payload + 2 * sealed}-${payload + 4 * sealed - 1}`]);
});
