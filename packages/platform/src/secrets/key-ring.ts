import { createHash, createHmac } from 'node:crypto';

/** AES-256 keys are 32 bytes. */
export const KEY_BYTES = 32;

/** The id stored with each sealed value: the first 8 hex digits of SHA-256 of the key. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export interface CredentialKey {
  kid: string;
  key: Buffer;
}

/**
 * The keys credentials are sealed and opened with: one current key (every new value is sealed
 * with it) and any number of old ones (still opened, during a rotation). Listing a key twice is
 * harmless; two different keys with one id cannot be told apart, so they are refused.
 */
export class KeyRing {
  readonly current: CredentialKey;
  /** Derived once from the current key: what `revision` keys its HMAC with. */
  private readonly revisionKey: Buffer;
  private readonly byKid = new Map<string, Buffer>();

  /**
   * `purpose` names what the ring protects (`push`, `storage`): it keys `revision`, so two purposes never share
   * revisions.
   */
  constructor(
    current: Buffer,
    old: readonly Buffer[] = [],
    readonly purpose = 'push',
  ) {
    for (const key of [current, ...old]) {
      if (key.length !== KEY_BYTES) throw new Error(`a credentials key must be ${KEY_BYTES} bytes (got ${key.length})`);
      const kid = keyId(key);
      const known = this.byKid.get(kid);
      if (known && !known.equals(key))
        throw new Error(`two different credentials keys share the id ${kid}; replace one of them`);
      this.byKid.set(kid, Buffer.from(key));
    }
    const kid = keyId(current);
    this.current = { kid, key: this.byKid.get(kid) ?? Buffer.from(current) };
    this.revisionKey = createHmac('sha256', this.current.key)
      .update(`patchbay ${purpose} credentials_revision v1`)
      .digest();
  }

  /**
   * What is stored as `credentials_revision`: the plaintext digest of the credentials, keyed (HMAC
   * with a key derived from the current one), so the stored value reveals nothing a guess about the
   * credentials could be checked against. A new current key changes every revision once: the next
   * update of each application rebuilds its provider clients, which is harmless.
   */
  revision(digest: string): string {
    return createHmac('sha256', this.revisionKey).update(digest).digest('hex').slice(0, 32);
  }

  /** The key with this id, if the ring has it. */
  find(kid: string): Buffer | undefined {
    return this.byKid.get(kid);
  }

  /** Ids of every key the ring opens with, current first. */
  kids(): string[] {
    return [...this.byKid.keys()];
  }
}
