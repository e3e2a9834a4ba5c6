import { codeForStatus, ERROR_CODES, isErrorCode, statusOf, type ErrorCode } from '../src/error-codes';
import {
  ApiError,
  BadRequestError,
  ConflictError,
  DuplicateKeyError,
  errorItem,
  ForbiddenError,
  hasErrorCode,
  NotFoundError,
  PayloadTooLargeError,
  RangeNotSatisfiableError,
  TimeoutError,
  TooManyRequestsError,
  UnauthorizedError,
  UnavailableError,
  UnprocessableError,
  UnsupportedMediaTypeError,
} from '../src/errors';
import { replyForError, unwrapReply, type BusReply } from '../src/reply';
import { BusReplySchema } from '../src/schemas/bus-reply';
import { compileValidator } from '../src/validate';

const codes = Object.keys(ERROR_CODES).filter(isErrorCode);

/** What unwrapReply throws for `reply`. */
function thrownBy(reply: BusReply): unknown {
  try {
    unwrapReply(reply);
  } catch (err) {
    return err;
  }
  throw new Error('unwrapReply did not throw');
}

/** `err` sent over the bus and read back, as a client of another service reads it. */
const roundTrip = (err: unknown) => thrownBy(replyForError(err));

test('every code has an HTTP error status and a message; codeForStatus finds the general code of a status', () => {
  for (const code of codes) {
    expect(statusOf(code)).toBeGreaterThanOrEqual(400);
    expect(statusOf(code)).toBeLessThan(600);
    expect(ERROR_CODES[code].message).not.toBe('');
    expect(statusOf(codeForStatus(statusOf(code)))).toBe(statusOf(code));
  }
  expect(codeForStatus(404)).toBe('not_found');
  expect(codeForStatus(401)).toBe('unauthorized');
  expect(codeForStatus(409)).toBe('conflict');
  expect(codeForStatus(503)).toBe('unavailable');
  // A status without a code of its own: the general code of its class.
  expect(codeForStatus(418)).toBe('bad_request');
  expect(codeForStatus(507)).toBe('internal');
  expect(isErrorCode('not_found')).toBe(true);
  expect(isErrorCode('toString')).toBe(false);
  expect(isErrorCode('no_such_code')).toBe(false);
});

test('each class takes one options object; status and default message come from the code', () => {
  const cases: [ApiError, ErrorCode, number, string][] = [
    [new BadRequestError(), 'bad_request', 400, 'bad request'],
    [new UnauthorizedError(), 'unauthorized', 401, 'Unauthorized'],
    [new UnauthorizedError({ code: 'bad_credentials' }), 'bad_credentials', 401, 'Bad credentials'],
    [new ForbiddenError(), 'forbidden', 403, 'Forbidden'],
    [new NotFoundError(), 'not_found', 404, 'Cannot find item by SID'],
    [new NotFoundError({ code: 'blob_not_found' }), 'blob_not_found', 404, 'blob not found'],
    [new ConflictError(), 'conflict', 409, 'conflict error'],
    [new DuplicateKeyError({ index: 'by_name' }), 'duplicate_key', 409, 'conflict error'],
    [new PayloadTooLargeError(), 'payload_too_large', 413, 'request entity too large'],
    [new UnsupportedMediaTypeError(), 'unsupported_media_type', 415, 'unsupported media type'],
    [new RangeNotSatisfiableError({ size: 10 }), 'range_not_satisfiable', 416, 'range not satisfiable'],
    [new UnprocessableError(), 'object_validation', 422, 'object validation error'],
    [new UnprocessableError({ code: 'quota_exceeded' }), 'quota_exceeded', 422, 'object validation error'],
    [new TooManyRequestsError({ retryAfterSeconds: 2 }), 'too_many_requests', 429, 'too many requests'],
    [new UnavailableError(), 'unavailable', 503, 'service unavailable'],
    [new TimeoutError(), 'timeout', 504, 'service timed out'],
    [new ApiError({ code: 'store_error' }), 'store_error', 500, 'document store error'],
  ];
  for (const [err, code, status, message] of cases) {
    expect({ code: err.code, status: err.status, message: err.message }).toEqual({ code, status, message });
    expect(err.toBody()).toEqual({ errors: err.errors, message });
  }
  const cause = new Error('disk full');
  const given = new NotFoundError({ message: 'gone', errors: [errorItem('no such file', 'file_sid')], cause });
  expect(given).toMatchObject({ message: 'gone', errors: [{ field: 'file_sid', message: 'no such file' }], cause });
  expect(new RangeNotSatisfiableError({ size: 10 }).size).toBe(10);
  expect(new DuplicateKeyError({ index: 'by_name' }).index).toBe('by_name');
  expect(new UnavailableError({ retryAfterSeconds: 0.2 }).retryAfterSeconds).toBe(1);
  // @ts-expect-error: a class takes only codes of its own status.
  expect(new NotFoundError({ code: 'conflict' }).status).toBe(409);
});

test('hasErrorCode tells errors apart by code, whatever their message', () => {
  const err = new ConflictError({ code: 'idempotency_key_in_progress', message: 'anything' });
  expect(hasErrorCode(err, 'idempotency_key_in_progress')).toBe(true);
  expect(hasErrorCode(err, 'conflict', 'duplicate_key')).toBe(false);
  expect(hasErrorCode(new DuplicateKeyError(), 'duplicate_key')).toBe(true);
  expect(hasErrorCode(new Error('duplicate_key'), 'duplicate_key')).toBe(false);
});

test('the bus reply carries the code beside the public body, which stays { errors, message }', () => {
  const validate = compileValidator(BusReplySchema);
  const err = new ConflictError({
    code: 'idempotency_key_in_progress',
    errors: [errorItem('still running', 'Idempotency-Key')],
    retryAfterSeconds: 3,
  });
  const reply = replyForError(err);
  expect(reply).toStrictEqual({
    status: 409,
    error: {
      errors: [{ field: 'Idempotency-Key', message: 'still running', reference_sid: null }],
      message: 'conflict error',
    },
    code: 'idempotency_key_in_progress',
    retry_after: 3,
  });
  expect(validate(reply)).toEqual(reply);
  expect(replyForError(new Error('secret'))).toStrictEqual({
    status: 500,
    error: { errors: [], message: 'internal server error' },
    code: 'internal',
  });
});

test('a specific code survives the round trip over the bus, in the class of its status', () => {
  const cases: [ApiError, new (...args: never[]) => ApiError][] = [
    [new NotFoundError({ code: 'blob_not_found', errors: [errorItem("no blob 'k'", 'key')] }), NotFoundError],
    [new NotFoundError({ code: 'upload_not_found' }), NotFoundError],
    [new ConflictError({ code: 'idempotency_key_in_progress', retryAfterSeconds: 4 }), ConflictError],
    [new ConflictError({ code: 'idempotency_key_contended' }), ConflictError],
    [
      new UnprocessableError({ code: 'idempotency_key_mismatch', errors: [errorItem('used', 'Idempotency-Key')] }),
      UnprocessableError,
    ],
    [
      new UnprocessableError({ code: 'quota_exceeded', errors: [errorItem('full', 'quota_files')] }),
      UnprocessableError,
    ],
    [new UnauthorizedError({ code: 'bad_credentials' }), UnauthorizedError],
    [new TooManyRequestsError({ retryAfterSeconds: 7, message: 'slow down' }), TooManyRequestsError],
    [new UnavailableError({ code: 'no_responders', message: 'nobody', retryAfterSeconds: 1 }), UnavailableError],
    [new BadRequestError({ message: 'validation error', errors: [errorItem('bad', 'limit')] }), BadRequestError],
    [new TimeoutError({ message: 'slow' }), TimeoutError],
    [new ApiError({ code: 'store_error' }), ApiError],
  ];
  for (const [sent, cls] of cases) {
    const got = roundTrip(sent);
    expect(got).toBeInstanceOf(cls);
    expect(got).toMatchObject({
      code: sent.code,
      status: sent.status,
      message: sent.message,
      errors: sent.errors,
      retryAfterSeconds: sent.retryAfterSeconds,
    });
  }
  // The adapter's class stays behind (its index is not sent); the code does not.
  const dup = roundTrip(new DuplicateKeyError({ index: 'by_name' }));
  expect(dup).toBeInstanceOf(ConflictError);
  expect(dup).not.toBeInstanceOf(DuplicateKeyError);
  expect(hasErrorCode(dup, 'duplicate_key')).toBe(true);
});

test('a reply without a code, with an unknown one or one of another status is read by its status', () => {
  const error = { errors: [], message: 'Cannot find item by SID' };
  for (const code of [undefined, 'a_code_from_a_newer_process', 'conflict']) {
    const got = thrownBy({ status: 404, error, ...(code ? { code } : {}) });
    expect(got).toBeInstanceOf(NotFoundError);
    expect(got).toMatchObject({ code: 'not_found', status: 404 });
  }
  expect(thrownBy({ status: 503, error: { errors: [], message: 'down' }, retry_after: 2 })).toMatchObject({
    code: 'unavailable',
    retryAfterSeconds: 2,
  });
  expect(thrownBy({ status: 500, error: { errors: [], message: 'internal server error' } })).toMatchObject({
    code: 'internal',
    status: 500,
  });
});
