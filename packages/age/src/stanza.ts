/**
 * What a recipient writes into the header and an identity reads back: one stanza per recipient,
 * `-> <type> <args…>` and a base64 body (https://age-encryption.org/v1, "Header").
 */
export interface Stanza {
  /** The stanza type, first word after `-> ` (`X25519`, `ssh-rsa`, or any other a file may carry). */
  readonly type: string;
  /** The words after the type. */
  readonly args: readonly string[];
  readonly body: Buffer;
}

export type KeyType = 'age-x25519' | 'ssh-rsa';

/** A public key a file can be encrypted to. */
export interface Recipient {
  readonly key_type: KeyType;
  /** The key in its canonical text form (`age1…`, or `ssh-rsa AAAA… [comment]`). */
  readonly public_key: string;
  /** `SHA256:<unpadded base64>` of the key bytes (see docs/encryption.md, "Keys and fingerprints"). */
  readonly fingerprint: string;
  /** Wraps the file key into this recipient's stanza. */
  wrap(fileKey: Buffer): Stanza;
}

/** A private key that can open a file encrypted to its recipient (or, `file-key`, one file's own key). */
export interface Identity {
  readonly key_type: KeyType | 'file-key';
  /** The fingerprint of the matching recipient, so a caller can tell which key it holds. */
  readonly fingerprint: string;
  /**
   * The file key from the first of `stanzas` meant for this identity, or null when none is.
   * Throws AgeFormatError for a stanza of its type that is malformed.
   */
  unwrap(stanzas: readonly Stanza[]): Buffer | null;
}
