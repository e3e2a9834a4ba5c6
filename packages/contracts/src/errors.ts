import { ERROR_CODES, statusOf, type CodeWithStatus, type ErrorCode } from './error-codes';
import type { ErrorBody, ErrorItem } from './schemas/error';

/** One entry of an error body; `field` and `reference_sid` default to null. */
export function errorItem(message: string, field: string | null = null, referenceSid: string | null = null): ErrorItem {
  return { field, message, reference_sid: referenceSid };
}

/**
 * What every error class is made with (the one constructor form). `code` is one of the class's status
 * (error-codes.ts), its general code when left out; `message` defaults to the code's.
 */
export interface ErrorOptions<C extends ErrorCode = ErrorCode> {
  code?: C;
  message?: string;
  errors?: ErrorItem[];
  cause?: unknown;
  /** When to try again (seconds): the Retry-After header of a 409, 429 or 503. */
  retryAfterSeconds?: number;
}

/**
 * Base of every error that crosses a port or the bus. It carries a stable code, the HTTP status
 * derived from it and the public error body; the gateway maps it as-is.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: ErrorItem[];
  /** When to try again (seconds): the Retry-After header of a 409, 429 or 503. */
  readonly retryAfterSeconds?: number;

  constructor(opts: ErrorOptions & { code: ErrorCode }) {
    super(opts.message ?? ERROR_CODES[opts.code].message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code;
    this.status = statusOf(opts.code);
    this.errors = opts.errors ?? [];
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = Math.max(1, Math.ceil(opts.retryAfterSeconds));
  }

  toBody(): ErrorBody {
    return { errors: this.errors, message: this.message };
  }
}

/** Whether `err` is an error with one of `codes`: how callers tell errors apart (never by their message). */
export function hasErrorCode(err: unknown, ...codes: ErrorCode[]): err is ApiError {
  return err instanceof ApiError && codes.includes(err.code);
}

/** 400: malformed request, schema mismatch, bad query parameter. */
export class BadRequestError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<400>> = {}) {
    super({ ...opts, code: opts.code ?? 'bad_request' });
  }
  /** A 400 naming one field or parameter. */
  static field(field: string, message: string): BadRequestError {
    return new BadRequestError({ message: 'validation error', errors: [errorItem(message, field)] });
  }
}

/** 401: no or an unknown token (`unauthorized`), or a refused login (`bad_credentials`); the message is the code's. */
export class UnauthorizedError extends ApiError {
  constructor(opts: Pick<ErrorOptions<CodeWithStatus<401>>, 'code' | 'cause'> = {}) {
    super({ ...opts, code: opts.code ?? 'unauthorized' });
  }
}

/** 403: authenticated, but a required scope is missing. */
export class ForbiddenError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<403>> = {}) {
    super({ ...opts, code: opts.code ?? 'forbidden' });
  }
}

/** 404: unknown secure ID (also another partner's object), or unknown route. */
export class NotFoundError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<404>> = {}) {
    super({ ...opts, code: opts.code ?? 'not_found' });
  }
}

/** 409; `retryAfterSeconds` when the conflict passes by itself (a request with the same Idempotency-Key running). */
export class ConflictError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<409>> = {}) {
    super({ ...opts, code: opts.code ?? 'conflict' });
  }
}

/**
 * A unique index refused a write (`duplicate_key`). Adapters raise it; domains usually translate it
 * further. Over the bus it arrives as a ConflictError with that code (the index stays behind).
 */
export class DuplicateKeyError extends ConflictError {
  readonly index: string | undefined;
  constructor(opts: { index?: string; cause?: unknown } = {}) {
    super({ code: 'duplicate_key', errors: [errorItem('duplicate key')], cause: opts.cause });
    this.index = opts.index;
  }
}

/** 413 */
export class PayloadTooLargeError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<413>> = {}) {
    super({ ...opts, code: opts.code ?? 'payload_too_large' });
  }
}

/** 415 */
export class UnsupportedMediaTypeError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<415>> = {}) {
    super({ ...opts, code: opts.code ?? 'unsupported_media_type' });
  }
}

/** 416; `size` is the object's, for the Content-Range of the answer. */
export class RangeNotSatisfiableError extends ApiError {
  readonly size: number;
  constructor(opts: { size: number; cause?: unknown }) {
    super({ code: 'range_not_satisfiable', cause: opts.cause });
    this.size = opts.size;
  }
}

/** 422: a well-formed request that breaks an object rule; the message is always the code's. */
export class UnprocessableError extends ApiError {
  constructor(opts: Omit<ErrorOptions<CodeWithStatus<422>>, 'message'> = {}) {
    super({ ...opts, code: opts.code ?? 'object_validation' });
  }
  static field(field: string | null, message: string, referenceSid: string | null = null): UnprocessableError {
    return new UnprocessableError({ errors: [errorItem(message, field, referenceSid)] });
  }
}

/** 429: too many attempts; `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyRequestsError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<429>> & { retryAfterSeconds: number }) {
    super({ ...opts, code: opts.code ?? 'too_many_requests' });
  }
}

/** 503: a service behind the gateway is down (no responders), or a resource it needs. */
export class UnavailableError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<503>> = {}) {
    super({ ...opts, code: opts.code ?? 'unavailable' });
  }
}

/** 504: a service did not answer in time. */
export class TimeoutError extends ApiError {
  constructor(opts: ErrorOptions<CodeWithStatus<504>> = {}) {
    super({ ...opts, code: opts.code ?? 'timeout' });
  }
}

/** Whether `code` is one of status `S` (narrows it to the codes a class of that status takes). */
function hasStatus<S extends number>(code: ErrorCode, status: S): code is CodeWithStatus<S> {
  return statusOf(code) === status;
}

/**
 * Rebuilds the typed error of a code read off the bus: the class of its status, with the code, body
 * and Retry-After it came with. A `duplicate_key` comes back as a ConflictError (its index is not sent).
 */
export function errorFromCode(code: ErrorCode, body: ErrorBody, retryAfterSeconds?: number): ApiError {
  const o = { message: body.message, errors: body.errors, retryAfterSeconds };
  if (hasStatus(code, 400)) return new BadRequestError({ ...o, code });
  if (hasStatus(code, 401)) return new UnauthorizedError({ code });
  if (hasStatus(code, 403)) return new ForbiddenError({ ...o, code });
  if (hasStatus(code, 404)) return new NotFoundError({ ...o, code });
  if (hasStatus(code, 409)) return new ConflictError({ ...o, code });
  if (hasStatus(code, 413)) return new PayloadTooLargeError({ ...o, code });
  if (hasStatus(code, 415)) return new UnsupportedMediaTypeError({ ...o, code });
  if (hasStatus(code, 422)) return new UnprocessableError({ errors: body.errors, code });
  if (hasStatus(code, 429)) return new TooManyRequestsError({ ...o, code, retryAfterSeconds: retryAfterSeconds ?? 1 });
  if (hasStatus(code, 503)) return new UnavailableError({ ...o, code });
  if (hasStatus(code, 504)) return new TimeoutError({ ...o, code });
  // A 416 without its size, a 500 or a 502: the code and body as they came.
  return new ApiError({ ...o, code });
}
