import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/*
 * A kept answer can hold secrets (an endpoint's SIP passwords are answered as written), and secrets
 * are never stored in plaintext (docs/security.md, Secrets at rest). So the gateway seals the body
 * with a key derived from the Idempotency-Key and the partner, and identity stores only the key's
 * hash: what is stored cannot be read without the key, which only the client holds — and a client
 * that holds it is owed the answer anyway.
 */

const INFO = 'patchbay idempotent answer v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The SHA-256 (hex) of a key: how identity finds the key's record without holding the key. */
export function keyHashOf(key: string): string {
  return createHash('sha256').update(key, 'latin1').digest('hex');
}

function sealingKey(partnerSid: string, key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(key, 'latin1'), Buffer.from(partnerSid), INFO, 32));
}

/** The body sealed (AES-256-GCM): Base64 of IV, tag and ciphertext. */
export function sealBody(body: Buffer, partnerSid: string, key: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(partnerSid, key), iv);
  const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The body a `sealBody` made with the same partner and key; throws when it does not open. */
export function openBody(sealed: string, partnerSid: string, key: string): Buffer {
  const bytes = Buffer.from(sealed, 'base64');
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(partnerSid, key), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
