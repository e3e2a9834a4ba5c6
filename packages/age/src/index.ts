/**
 * @patchbay/age — the age v1 file format (https://age-encryption.org/v1), streamed, for files
 * encrypted at rest to a partner's own public keys: X25519 (`age1…`) and `ssh-rsa` recipients,
 * encryption to 1–4 of them, decryption with an identity, and plaintext ranges read from only the
 * chunks that hold them. Files interoperate with the stock `age` tool both ways.
 */
export { AgeDecryptStream, decryptStream } from './decrypt-stream';
export { AgeEncryptStream, encryptStream, type AgeSummary } from './encrypt-stream';
export { AgeFormatError, AgeIntegrityError, AgeKeyError, AgeNoIdentityError } from './errors';
export { CHUNK_SIZE, MAX_RECIPIENTS, PAYLOAD_NONCE_SIZE, SEALED_CHUNK_SIZE, TAG_SIZE } from './format';
export { MAX_HEADER_BYTES } from './header';
export { FileKeyIdentity } from './file-key-identity';
export { parseIdentities, parseRecipient } from './keys';
export { type AgeLayout, type CiphertextRange, chunkOffset, ciphertextRange, payloadShape } from './layout';
export { AgeRangeReader, type FetchRange, readPlaintextRange, type RangeReaderOptions } from './range-reader';
export { MAX_RSA_BITS, MIN_RSA_BITS } from './ssh-rsa-key';
export { SshRsaIdentity, SshRsaRecipient } from './ssh-rsa';
export type { Identity, KeyType, Recipient, Stanza } from './stanza';
export { X25519Identity, X25519Recipient } from './x25519';
