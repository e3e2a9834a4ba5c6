/**
 * Reading what a caught value carries without casting it: a `catch` hands over `unknown`, and
 * drivers and SDKs throw objects whose fields (`code`, `name`, `statusCode`…) their types do not
 * declare. Each reader checks the value is an object before it looks.
 */

/** The field `key` of `value` when it is an object (own or inherited), else undefined. */
export function fieldOf(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return Reflect.get(value, key);
}

/** The `code` of a caught error (Node's system errors: `ENOENT`, `EEXIST`, `EPERM`…), else undefined. */
export function errorCode(err: unknown): unknown {
  return fieldOf(err, 'code');
}

/**
 * The message of a caught error (read as a field, not by instanceof: under jest Node's own errors
 * come from another realm); a thrown value without one as text.
 */
export function errorMessage(err: unknown): string {
  const message = fieldOf(err, 'message');
  return typeof message === 'string' ? message : String(err);
}
