import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/*
 * AES-256-GCM under a key the caller holds: Base64 of IV (12 bytes), tag (16) and ciphertext. The
 * kept answers of idempotent writes are sealed so (the gateway's in identity, a service's own in
 * kept-answers.ts), with a key derived from the client's Idempotency-Key that is never stored.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `bytes` sealed with the 32-byte `key`. */
export function sealWithKey(bytes: Buffer, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** What `sealWithKey` sealed with the same key; throws when it does not open (another key, changed bytes). */
export function openWithKey(sealed: string, key: Buffer): Buffer {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
