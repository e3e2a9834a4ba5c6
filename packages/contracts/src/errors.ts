import type { ErrorBody, ErrorItem } from './schemas/error';

/** One entry of an error body; `field` and `reference_sid` default to null. */
export function errorItem(message: string, field: string | null = null, referenceSid: string | null = null): ErrorItem {
  return { field, message, reference_sid: referenceSid };
}

/**
 * Base of every error that crosses a port or the bus. It carries its HTTP status, a stable code
 * and the public error body; the gateway maps it as-is.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: ErrorItem[];
  /** When to try again (seconds): the Retry-After header of a 429 or 503. */
  readonly retryAfterSeconds?: number;

  constructor(
    status: number,
    code: string,
    message: string,
    errors: ErrorItem[] = [],
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.errors = errors;
    if (options?.retryAfterSeconds !== undefined)
      this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds));
  }

  toBody(): ErrorBody {
    return { errors: this.errors, message: this.message };
  }
}

/** 400: malformed request, schema mismatch, bad query parameter. */
export class BadRequestError extends ApiError {
  constructor(message = 'bad request', errors: ErrorItem[] = [], options?: { cause?: unknown }) {
    super(400, 'bad_request', message, errors, options);
  }
  /** A 400 naming one field or parameter. */
  static field(field: string, message: string): BadRequestError {
    return new BadRequestError('validation error', [errorItem(message, field)]);
  }
}

/** 401 */
export class UnauthorizedError extends ApiError {
  constructor(message: 'Unauthorized' | 'Bad credentials' = 'Unauthorized') {
    super(401, message === 'Unauthorized' ? 'unauthorized' : 'bad_credentials', message, []);
  }
}

/** 403: authenticated, but a required scope is missing. */
export class ForbiddenError extends ApiError {
  constructor(message = 'Forbidden', errors: ErrorItem[] = []) {
    super(403, 'forbidden', message, errors);
  }
}

/** 404: unknown secure ID (also another partner's object), or unknown route. */
export class NotFoundError extends ApiError {
  constructor(message = 'Cannot find item by SID', errors: ErrorItem[] = [], options?: { cause?: unknown }) {
    super(404, 'not_found', message, errors, options);
  }
}

/** 409; `retryAfterSeconds` when the conflict passes by itself (a request with the same Idempotency-Key running). */
export class ConflictError extends ApiError {
  constructor(
    errors: ErrorItem[] = [],
    options?: { cause?: unknown; retryAfterSeconds?: number },
    message = 'conflict error',
  ) {
    super(409, 'conflict', message, errors, options);
  }
}

/** A unique index refused a write. Adapters raise it; domains usually translate it further. */
export class DuplicateKeyError extends ConflictError {
  readonly index: string | undefined;
  constructor(index?: string, options?: { cause?: unknown }) {
    super([errorItem('duplicate key')], options);
    this.index = index;
  }
}

/** 413 */
export class PayloadTooLargeError extends ApiError {
  constructor(message = 'request entity too large') {
    super(413, 'payload_too_large', message, []);
  }
}

/** 415 */
export class UnsupportedMediaTypeError extends ApiError {
  constructor(message = 'unsupported media type', errors: ErrorItem[] = []) {
    super(415, 'unsupported_media_type', message, errors);
  }
}

/** 416 */
export class RangeNotSatisfiableError extends ApiError {
  constructor(readonly size: number) {
    super(416, 'range_not_satisfiable', 'range not satisfiable', []);
  }
}

/** 422: a well-formed request that breaks an object rule. */
export class UnprocessableError extends ApiError {
  constructor(errors: ErrorItem[] = [], options?: { cause?: unknown }) {
    super(422, 'object_validation', 'object validation error', errors, options);
  }
  static field(field: string | null, message: string, referenceSid: string | null = null): UnprocessableError {
    return new UnprocessableError([errorItem(message, field, referenceSid)]);
  }
}

/** 429: too many attempts; `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyRequestsError extends ApiError {
  constructor(retryAfterSeconds: number, message = 'too many requests', errors: ErrorItem[] = []) {
    super(429, 'too_many_requests', message, errors, { retryAfterSeconds });
  }
}

/** 503: a service behind the gateway is down (no responders). */
export class UnavailableError extends ApiError {
  constructor(
    message = 'service unavailable',
    errors: ErrorItem[] = [],
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(503, 'unavailable', message, errors, options);
  }
}

/** 504: a service did not answer in time. */
export class TimeoutError extends ApiError {
  constructor(message = 'service timed out', errors: ErrorItem[] = [], options?: { cause?: unknown }) {
    super(504, 'timeout', message, errors, options);
  }
}

/** Rebuilds the typed error for a status read off the bus or HTTP. */
export function errorFromStatus(status: number, body: ErrorBody, retryAfter?: number): ApiError {
  switch (status) {
    case 400:
      return new BadRequestError(body.message, body.errors);
    case 401:
      return new UnauthorizedError(body.message === 'Bad credentials' ? 'Bad credentials' : 'Unauthorized');
    case 403:
      return new ForbiddenError(body.message, body.errors);
    case 404:
      return new NotFoundError(body.message, body.errors);
    case 409:
      return new ConflictError(body.errors, retryAfter ? { retryAfterSeconds: retryAfter } : undefined, body.message);
    case 413:
      return new PayloadTooLargeError(body.message);
    case 415:
      return new UnsupportedMediaTypeError(body.message, body.errors);
    case 429:
      return new TooManyRequestsError(retryAfter ?? 1, body.message, body.errors);
    case 422: {
      const e = new UnprocessableError(body.errors);
      return e;
    }
    case 503:
      return new UnavailableError(body.message, body.errors, { retryAfterSeconds: retryAfter });
    case 504:
      return new TimeoutError(body.message, body.errors);
    default:
      return new ApiError(status, 'error', body.message, body.errors);
  }
}
