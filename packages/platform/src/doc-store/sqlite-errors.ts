/** SQLite errors → the contract errors every port speaks; no raw driver error crosses the port. */
import { ApiError, DuplicateKeyError, UnavailableError } from '@patchbay/contracts';
import { SqliteError } from 'better-sqlite3';

/**
 * `uniqueName` turns SQLite's message (`UNIQUE constraint failed: t.c1, t.c2`) into the port name of the
 * index. A busy or locked database (another process holds it) is a 503; a full disk or an I/O error a 500
 * with the cause kept for the log.
 */
export function translateSqliteError(err: unknown, uniqueName: (message: string) => string | undefined): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof SqliteError) {
    if (err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
      return new DuplicateKeyError(uniqueName(err.message), { cause: err });
    if (err.code.startsWith('SQLITE_BUSY') || err.code.startsWith('SQLITE_LOCKED'))
      return new UnavailableError('document store busy', [], { cause: err });
  }
  if (err instanceof Error && /^(cannot|a replacement|createIndex)/.test(err.message))
    return new ApiError(400, 'bad_request', err.message, [], { cause: err });
  return new ApiError(500, 'store_error', 'document store error', [], { cause: err });
}
