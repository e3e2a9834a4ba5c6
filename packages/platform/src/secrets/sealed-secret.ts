import { fieldOf } from '../basics/error-fields';
/**
 * A credential as stored: AES-256-GCM ciphertext with what opening it needs except the key.
 * `kid` names the key (first 8 hex digits of its SHA-256), so keys can be rotated: values sealed
 * with an old key still open while it is listed in the old keys (PUSH_CREDENTIALS_OLD_KEYS,
 * STORAGE_CREDENTIALS_OLD_KEYS), and the start-up
 * migration re-seals them with the current one. `iv`, `tag` and `data` are Base64.
 */
export interface SealedSecret {
  v: 1;
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

/**
 * A credential field as it may be found in the store: sealed, a plain string written before
 * credentials were encrypted (read as is, sealed on the next write), or null (not set).
 */
export type StoredSecret = SealedSecret | string | null;

/** Whether a stored value has the sealed shape (it may still fail to open). */
export function isSealedSecret(value: unknown): value is SealedSecret {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return (
    fieldOf(value, 'v') === 1 &&
    typeof fieldOf(value, 'kid') === 'string' &&
    typeof fieldOf(value, 'iv') === 'string' &&
    typeof fieldOf(value, 'tag') === 'string' &&
    typeof fieldOf(value, 'data') === 'string'
  );
}
