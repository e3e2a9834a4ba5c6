import { createHash, hkdfSync } from 'node:crypto';
import { openWithKey, sealWithKey } from '@patchbay/platform';

/*
 * A kept answer can hold secrets (an endpoint's SIP passwords are answered as written), and secrets
 * are never stored in plaintext (docs/security.md, Secrets at rest). So the gateway seals the body
 * with a key derived from the Idempotency-Key and the partner, and identity stores only the key's
 * hash: what is stored cannot be read without the key, which only the client holds — and a client
 * that holds it is owed the answer anyway. A service that keeps its own answer to a keyed write
 * (platform's kept-answers.ts) is sent the same derived key with the request.
 */

const INFO = 'patchbay idempotent answer v1';

/** The SHA-256 (hex) of a key: how identity finds the key's record without holding the key. */
export function keyHashOf(key: string): string {
  return createHash('sha256').update(key, 'latin1').digest('hex');
}

/** The AES-256 key a partner's answers under `key` are sealed with. */
export function sealingKey(partnerSid: string, key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(key, 'latin1'), Buffer.from(partnerSid), INFO, 32));
}

/** The body sealed (AES-256-GCM): Base64 of IV, tag and ciphertext. */
export function sealBody(body: Buffer, partnerSid: string, key: string): string {
  return sealWithKey(body, sealingKey(partnerSid, key));
}

/** The body a `sealBody` made with the same partner and key; throws when it does not open. */
export function openBody(sealed: string, partnerSid: string, key: string): Buffer {
  return openWithKey(sealed, sealingKey(partnerSid, key));
}
