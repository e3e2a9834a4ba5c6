/** A stored credential that cannot be opened; the message never carries key or plaintext. */
export class SecretError extends Error {
  constructor(
    message: string,
    readonly kid: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SecretError';
  }
}

/**
 * The value was sealed with a key this process does not have (not the current key, not an old
 * one): a configuration problem, fixed by adding that key back.
 */
export class UnknownKeyError extends SecretError {
  constructor(kid: string) {
    super(`sealed with key ${kid}, which is neither the current credentials key nor an old one`, kid);
    this.name = 'UnknownKeyError';
  }
}

/**
 * The value does not authenticate under its key and context: it was altered, moved to another
 * application or field, or is not a sealed value at all.
 */
export class TamperedSecretError extends SecretError {
  constructor(reason: string, kid: string | null, options?: { cause?: unknown }) {
    super(`sealed value does not open: ${reason}`, kid, options);
    this.name = 'TamperedSecretError';
  }
}
