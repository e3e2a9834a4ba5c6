/** SQLite errors → the contract errors every port speaks; no raw driver error crosses the port. */
import { ApiError, DuplicateKeyError, UnavailableError } from '@patchbay/contracts';
import { errorCode, fieldOf } from '../basics/error-fields';

/**
 * `uniqueName` turns SQLite's message (`UNIQUE constraint failed: t.c1, t.c2`) into the port name of the
 * index. A busy or locked database (another process holds it) is a 503; a full disk or an I/O error a 500
 * with the cause kept for the log.
 */
export function translateSqliteError(err: unknown, uniqueName: (message: string) => string | undefined): ApiError {
  if (err instanceof ApiError) return err;
  if (isSqliteError(err)) {
    if (err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
      return new DuplicateKeyError({ index: uniqueName(err.message), cause: err });
    if (err.code.startsWith('SQLITE_BUSY') || err.code.startsWith('SQLITE_LOCKED'))
      return new UnavailableError({ message: 'document store busy', cause: err });
  }
  return new ApiError({ code: 'store_error', message: 'document store error', cause: err });
}

/**
 * By name, not instanceof: the native addon keeps the SqliteError class of the first load of the module,
 * so under a module registry per test file (jest) a later file's class is another one.
 */
function isSqliteError(err: unknown): err is Error & { code: string } {
  // Not even `instanceof Error`: that class belongs to the realm (jest's context) of the first load too.
  return (
    typeof err === 'object' &&
    err !== null &&
    fieldOf(err, 'name') === 'SqliteError' &&
    typeof errorCode(err) === 'string'
  );
}
