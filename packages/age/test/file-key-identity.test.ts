/**
 * A file's own key as an identity (decisions §43): what an encrypter wrote, its `fileKey` reads
 * back, whatever the recipients; the key of another file does not (the header MAC refuses it);
 * and the key is a copy, so a caller that zeroes its own does not break the stream.
 */
import crypto from 'node:crypto';
import { AgeIntegrityError, AgeKeyError, decryptStream, encryptStream, FileKeyIdentity, X25519Recipient } from '../src';
import { digest, randomBytes, readableOf, through } from './support/bytes';

/** A fresh X25519 recipient (its private half is thrown away: only the file key reads these files). */
const recipient = () => new X25519Recipient(crypto.randomBytes(32));

test('the encrypter’s file key decrypts its own file', async () => {
  const plaintext = randomBytes(200_000);
  const enc = encryptStream([recipient(), recipient()]);
  const file = await through(enc, readableOf(plaintext));
  const key = enc.fileKey;
  expect(key).toHaveLength(16);
  const back = await through(decryptStream([new FileKeyIdentity(key)]), readableOf(file));
  expect(digest(back)).toEqual(digest(plaintext));
});

test('another file’s key is refused by the header MAC', async () => {
  const first = encryptStream([recipient()]);
  await through(first, readableOf(randomBytes(10)));
  const second = encryptStream([recipient()]);
  const file = await through(second, readableOf(randomBytes(10)));
  await expect(through(decryptStream([new FileKeyIdentity(first.fileKey)]), readableOf(file))).rejects.toThrow(
    AgeIntegrityError,
  );
});

test('fileKey is a copy; a key of the wrong size is refused', async () => {
  const enc = encryptStream([recipient()]);
  const file = await through(enc, readableOf(randomBytes(1000)));
  const key = enc.fileKey;
  enc.fileKey.fill(0);
  await expect(through(decryptStream([new FileKeyIdentity(key)]), readableOf(file))).resolves.toHaveLength(1000);
  expect(() => new FileKeyIdentity(Buffer.alloc(15))).toThrow(AgeKeyError);
});
