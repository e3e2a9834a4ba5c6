/**
 * Credentials at rest (AES-256-GCM, a key id per value, owner and field as associated data, key rotation): push and
 * storage alike.
 */
export { KeyRing, KEY_BYTES, keyId } from './key-ring';
export type { CredentialKey } from './key-ring';
export { sealSecret, openSecret } from './secret-box';
export { isSealedSecret } from './sealed-secret';
export type { SealedSecret, StoredSecret } from './sealed-secret';
export { SecretError, UnknownKeyError, TamperedSecretError } from './secret-errors';
export { readOrCreateKeyFile, KeyFileError } from './key-file';
export { credentialKeySettings } from './key-settings';
export type { CredentialKeySettings, CredentialKeySpec } from './key-settings';
export { openKeyRing } from './open-key-ring';
