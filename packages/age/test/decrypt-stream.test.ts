/**
 * Decryption never hands out unverified plaintext: a file encrypted to someone else, an altered
 * header, an altered, reordered or missing chunk, a file cut short (also exactly at a chunk
 * boundary), extra bytes after the last chunk — each is an error of its own kind.
 */
import fs from 'node:fs';
import {
  AgeFormatError,
  AgeIntegrityError,
  AgeNoIdentityError,
  decryptStream,
  encryptStream,
  type Identity,
  parseIdentities,
  parseRecipient,
} from '../src';
import { sealFileKey } from '../src/file-key';
import { payloadKey, sealChunk } from '../src/payload';
import { digest, randomBytes, readableOf, through } from './support/bytes';
import { makeKeys, type TestKeys } from './support/keys';

let keys: TestKeys;
let identities: Identity[];
let plaintext: Buffer;
let file: Buffer;
let headerBytes: number;
const CHUNK = 65552;

beforeAll(async () => {
  keys = makeKeys();
  identities = parseIdentities(fs.readFileSync(keys.ageIdentityFile, 'utf8'));
  plaintext = randomBytes(3 * 65536 + 1000); // four chunks, the last one short
  const enc = encryptStream([keys.ageRecipient, keys.rsaPublicKey]);
  file = await through(enc, readableOf(plaintext));
  headerBytes = enc.summary?.header_bytes ?? 0;
});
afterAll(() => keys.cleanup());

const decrypt = (bytes: Buffer, ids = identities) => through(decryptStream(ids), readableOf(bytes, 5000));
const chunkAt = (i: number) => headerBytes + 16 + i * CHUNK;
const flipped = (at: number) => {
  const copy = Buffer.from(file);
  copy[at] ^= 0x01;
  return copy;
};

test('the intact file decrypts, with either identity', async () => {
  expect(digest(await decrypt(file))).toEqual(digest(plaintext));
  const rsa = parseIdentities(fs.readFileSync(keys.rsaPrivateFile, 'utf8'));
  expect(digest(await decrypt(file, rsa))).toEqual(digest(plaintext));
});

test('an identity the file is not encrypted to', async () => {
  const other = parseIdentities(fs.readFileSync(keys.pemPrivateFile, 'utf8'));
  await expect(decrypt(file, other)).rejects.toThrow(AgeNoIdentityError);
  expect(() => decryptStream([])).toThrow(/no identity given/);
});

test('an altered header: a changed MAC, an added stanza, a changed version line', async () => {
  // A different base64 letter inside the MAC (flipping a bit could give a non-base64 byte instead).
  const mac = Buffer.from(file);
  mac[headerBytes - 10] = mac[headerBytes - 10] === 0x41 ? 0x42 : 0x41;
  await expect(decrypt(mac)).rejects.toThrow(/header MAC does not verify/);
  const macLine = file.lastIndexOf('\n---', headerBytes) + 1;
  const grease = Buffer.concat([file.subarray(0, macLine), Buffer.from('-> grease x\n\n'), file.subarray(macLine)]);
  await expect(decrypt(grease)).rejects.toThrow(/header MAC does not verify/);
  await expect(decrypt(flipped(3))).rejects.toThrow(AgeFormatError);
});

test('an altered chunk, swapped chunks', async () => {
  await expect(decrypt(flipped(chunkAt(1) + 100))).rejects.toThrow(/chunk #1 does not verify/);
  await expect(decrypt(flipped(file.length - 1))).rejects.toThrow(/last chunk \(#3\) does not verify/);
  await expect(decrypt(flipped(headerBytes + 2))).rejects.toThrow(/chunk #0 does not verify/); // the nonce
  const swapped = Buffer.concat([
    file.subarray(0, chunkAt(0)),
    file.subarray(chunkAt(1), chunkAt(2)),
    file.subarray(chunkAt(0), chunkAt(1)),
    file.subarray(chunkAt(2)),
  ]);
  await expect(decrypt(swapped)).rejects.toThrow(AgeIntegrityError);
});

test('cut short: at a chunk boundary, inside a chunk, before the payload, inside the header', async () => {
  await expect(decrypt(file.subarray(0, chunkAt(3)))).rejects.toThrow(/last chunk \(#2\) does not verify/);
  await expect(decrypt(file.subarray(0, chunkAt(1)))).rejects.toThrow(/last chunk \(#0\) does not verify/);
  await expect(decrypt(file.subarray(0, file.length - 1))).rejects.toThrow(AgeIntegrityError);
  await expect(decrypt(file.subarray(0, headerBytes + 16))).rejects.toThrow(/last chunk is missing/);
  await expect(decrypt(file.subarray(0, headerBytes + 8))).rejects.toThrow(/truncated/);
  await expect(decrypt(file.subarray(0, 40))).rejects.toThrow(/truncated/);
});

test('bytes after the last chunk', async () => {
  await expect(decrypt(Buffer.concat([file, Buffer.from('x')]))).rejects.toThrow(AgeIntegrityError);
  await expect(decrypt(Buffer.concat([file, file.subarray(chunkAt(3))]))).rejects.toThrow(AgeIntegrityError);
});

test('not an age file at all, or a header without end', async () => {
  await expect(decrypt(Buffer.from('hello world\n'.repeat(10)))).rejects.toThrow(/not an age v1 file/);
  const endless = Buffer.concat([Buffer.from('age-encryption.org/v1\n-> x\n'), Buffer.alloc(70 * 1024, 0x41)]);
  await expect(decrypt(endless)).rejects.toThrow(/the header exceeds 65536 bytes/);
});

test('an empty last chunk after a full one is refused (the format allows it only for an empty file)', async () => {
  const { fileKey, header } = sealFileKey([parseRecipient(keys.ageRecipient)]);
  const nonce = randomBytes(16);
  const key = payloadKey(fileKey, nonce);
  const full = randomBytes(65536);
  const crafted = Buffer.concat([header, nonce, ...sealChunk(key, 0, false, [full]), ...sealChunk(key, 1, true, [])]);
  await expect(decrypt(crafted)).rejects.toThrow(/last chunk is empty/);
});
