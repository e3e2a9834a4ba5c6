import {
  TamperedSecretError,
  isSealedSecret,
  openSecret,
  sealSecret,
  type KeyRing,
  type SealedSecret,
  type StoredSecret,
} from '@patchbay/platform';

/**
 * What an export's sealed callback key is bound to (GCM additional data): its export, so a sealed key copied into
 * another export's document does not open there.
 */
export const callbackKeyContext = (exportSid: string): string => `record_exports/${exportSid}/callback.key`;

/** The callback signing key of a new export, sealed with the current key (it is shown once, in the 202). */
export function sealCallbackKey(ring: KeyRing, exportSid: string, key: string): SealedSecret {
  return sealSecret(ring, key, callbackKeyContext(exportSid));
}

/**
 * The signing key in plaintext: one stored as a plain string (by a version before keys were sealed) as is, a sealed
 * one opened. Throws a SecretError when it does not open (its key is not configured, or it was altered).
 */
export function openCallbackKey(ring: KeyRing, exportSid: string, stored: StoredSecret): string {
  if (typeof stored === 'string') return stored;
  if (!isSealedSecret(stored)) throw new TamperedSecretError('not a sealed value', null);
  return openSecret(ring, stored, callbackKeyContext(exportSid));
}
