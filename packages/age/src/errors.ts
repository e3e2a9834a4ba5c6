/**
 * One error class per kind of failure, each with a stable `code`, so a caller maps them without
 * reading messages: a bad public key is the caller's input (the storage service answers 422 naming
 * `public_key`); a bad file, a file nobody here can open, and a file that was altered or cut short
 * are three different answers to a partner.
 */

/** A public key or identity that is not one this package accepts; the message says why. */
export class AgeKeyError extends Error {
  readonly code = 'age_key_invalid';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgeKeyError';
  }
}

/** The bytes are not a well-formed age v1 file (header syntax, sizes, a stanza of the wrong shape). */
export class AgeFormatError extends Error {
  readonly code = 'age_format';
  constructor(message: string) {
    super(message);
    this.name = 'AgeFormatError';
  }
}

/** None of the given identities opens any recipient stanza of the file. */
export class AgeNoIdentityError extends Error {
  readonly code = 'age_no_identity';
  constructor(message = 'no identity matched any of the recipients of the file') {
    super(message);
    this.name = 'AgeNoIdentityError';
  }
}

/**
 * The file was altered or cut short: the header MAC or a chunk's tag does not verify, the last
 * chunk is missing, or data follows it. No plaintext of a failing chunk is ever released.
 */
export class AgeIntegrityError extends Error {
  readonly code = 'age_integrity';
  constructor(message: string) {
    super(message);
    this.name = 'AgeIntegrityError';
  }
}

/**
 * A caught value as an Error: itself when it has an Error's shape (checked by shape, not instanceof:
 * under jest Node's own errors come from another realm), else an Error saying what was thrown.
 */
export function asError(err: unknown): Error {
  return hasErrorShape(err) ? err : new Error(String(err));
}

function hasErrorShape(err: unknown): err is Error {
  if (err instanceof Error) return true;
  if (typeof err !== 'object' || err === null || !('name' in err) || !('message' in err)) return false;
  return typeof err.name === 'string' && typeof err.message === 'string';
}
