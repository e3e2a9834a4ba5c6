import { errorCode, fieldOf } from '../basics/error-fields';

/** The one text every refused address gets, whatever the address and however it was spelled. */
export const ADDRESS_NOT_ALLOWED = 'this address is not allowed';

/** The `code` of AddressNotAllowedError, for code that finds it inside an SDK's wrapped error. */
export const ADDRESS_NOT_ALLOWED_CODE = 'ERR_ADDRESS_NOT_ALLOWED';

/**
 * A connection refused by the outbound-address guard before it was made (the address is loopback,
 * private, link-local, …: address-ranges.ts). The message is the same for every address, so an answer
 * that carries it says nothing about what is there; `host` keeps what was asked for, for logs only.
 */
export class AddressNotAllowedError extends Error {
  readonly code = ADDRESS_NOT_ALLOWED_CODE;

  constructor(readonly host: string) {
    super(ADDRESS_NOT_ALLOWED);
    this.name = 'AddressNotAllowedError';
  }

  /** Whether `err`, or an error it wraps (`cause`, up to four deep), is this refusal. */
  static within(err: unknown): boolean {
    for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
      if (errorCode(e) === ADDRESS_NOT_ALLOWED_CODE) return true;
      const message = fieldOf(e, 'message');
      // Some SDKs keep only the message of the error they wrap (the AWS SDK's "error wrapper").
      if (typeof message === 'string' && message.includes(ADDRESS_NOT_ALLOWED)) return true;
      e = fieldOf(e, 'cause');
    }
    return false;
  }
}
