import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyRing } from './key-ring';
import type { SealedSecret } from './sealed-secret';
import { TamperedSecretError, UnknownKeyError } from './secret-errors';

const ALGORITHM = 'aes-256-gcm';
/** 96-bit IVs, random per value: GCM's recommended size; 2^32 values per key stay far from a collision. */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals `plaintext` with the ring's current key (AES-256-GCM, a fresh random IV). `context` is
 * authenticated but not stored (GCM additional data): the owner and field of the value, so a
 * sealed value copied into another application or field does not open there.
 */
export function sealSecret(ring: KeyRing, plaintext: string, context: string): SealedSecret {
  const { kid, key } = ring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    v: 1,
    kid,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}

/**
 * Opens a sealed value with the key its `kid` names, checking it was sealed for `context`.
 * Throws UnknownKeyError when the ring lacks that key, TamperedSecretError when the value does
 * not authenticate (altered, moved, or malformed).
 */
export function openSecret(ring: KeyRing, sealed: SealedSecret, context: string): string {
  const key = ring.find(sealed.kid);
  if (!key) throw new UnknownKeyError(sealed.kid);
  const iv = Buffer.from(sealed.iv, 'base64');
  const tag = Buffer.from(sealed.tag, 'base64');
  if (sealed.v !== 1) throw new TamperedSecretError(`unknown version ${String(sealed.v)}`, sealed.kid);
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
    throw new TamperedSecretError('malformed IV or tag', sealed.kid);
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  } catch (err) {
    throw new TamperedSecretError('authentication failed', sealed.kid, { cause: err });
  }
}
