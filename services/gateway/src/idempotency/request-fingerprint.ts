import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { BadRequestError, IDEMPOTENCY_KEY_HEADER, isIdempotencyKey } from '@patchbay/contracts';
import { sortKeysDeep } from '../http/respond';
import { bodyKind, type RouteDef } from '../http/route-def';

/*
 * What makes two requests with one Idempotency-Key "the same request" (docs/interface-notes.md,
 * Idempotency keys): the method, the path, the query (parameters sorted, so their order does not
 * matter) and the body — for a JSON or form body its parsed value with keys sorted (spacing and key
 * order do not matter), for a streamed body its bytes as sent (body-digest.ts).
 */

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The SHA-256 of no body: a route that reads none (DELETE) always has it. */
export const EMPTY_BODY_HASH = sha256('');

/** The request's key: null when it sends none; a 400 naming the header when it is not 1–255 printable ASCII. */
export function idempotencyKeyOf(req: Request): string | null {
  const value = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return null;
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (!isIdempotencyKey(key))
    throw BadRequestError.field(IDEMPOTENCY_KEY_HEADER, 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  return key;
}

/** The hash of the method, the path and the sorted query parameters. */
export function requestHashOf(req: Request): string {
  const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  const query = [...new URLSearchParams(search)].sort(([a, x], [b, y]) =>
    a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1,
  );
  return sha256(JSON.stringify([req.method, `${req.baseUrl}${req.path}`, query]));
}

/** The hash of a body already parsed (JSON or form), or of none (a streamed body is hashed as it is read instead). */
export function parsedBodyHash(route: RouteDef, body: unknown): string {
  if (bodyKind(route) === 'none') return EMPTY_BODY_HASH;
  return sha256(JSON.stringify(sortKeysDeep(body ?? {})));
}

/** One hash of the whole request, as storage keeps it on a file committed under the key. */
export function fingerprintOf(requestHash: string, bodyHash: string): string {
  return sha256(`${requestHash}\n${bodyHash}`);
}
