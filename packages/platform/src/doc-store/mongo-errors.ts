/**
 * MongoDB driver errors → the contract errors every port speaks. Shared by the MongoDB document
 * store and the GridFS blob store so no raw driver error crosses a port.
 */
import { ApiError, DuplicateKeyError, UnavailableError } from '@patchbay/contracts';
import {
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoClientClosedError,
} from 'mongodb';
import { errorCode, fieldOf } from '../basics/error-fields';

/** E11000 (and the legacy 11001) is a unique index refusing a write, from any command or bulk write. */
const DUPLICATE_KEY = new Set([11000, 11001]);

/** `what` names the store in the generic messages ('document store', 'blob store'). */
export function translateMongoError(err: unknown, what = 'document store'): ApiError {
  if (err instanceof ApiError) return err;
  if (isDuplicateKey(err)) return new DuplicateKeyError({ index: indexName(err), cause: err });
  if (
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err instanceof MongoNotConnectedError ||
    err instanceof MongoTopologyClosedError ||
    err instanceof MongoClientClosedError ||
    err instanceof MongoOperationTimeoutError
  ) {
    return new UnavailableError({ message: `${what} unavailable`, cause: err });
  }
  return new ApiError({ code: 'store_error', message: `${what} error`, cause: err });
}

function isDuplicateKey(err: unknown): err is MongoError {
  if (!(err instanceof MongoError)) return false;
  if (typeof err.code === 'number' && DUPLICATE_KEY.has(err.code)) return true;
  // A bulk write carries the codes of its individual failures.
  const writeErrors = fieldOf(err, 'writeErrors');
  const list: unknown[] = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.some((w) => {
    const code = errorCode(w);
    return typeof code === 'number' && DUPLICATE_KEY.has(code);
  });
}

/**
 * The server names the index in its message: `E11000 duplicate key error collection: db.c index: email_1 dup key: …`.
 */
function indexName(err: MongoError): string | undefined {
  const writeErrors = fieldOf(err, 'writeErrors');
  const first: unknown = Array.isArray(writeErrors) ? writeErrors[0] : writeErrors;
  const errmsg = fieldOf(first, 'errmsg');
  const message = typeof errmsg === 'string' ? errmsg : err.message;
  return /index: (\S+) dup key/.exec(message)?.[1];
}
