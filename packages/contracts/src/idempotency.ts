/**
 * Idempotency keys (docs/interface-notes.md, Idempotency keys): the request header a client sends
 * on a write, the response header that marks a replayed answer, and what a key may be. The gateway
 * reads them, the client and the CLI send them; one spelling for all.
 */
import { ConflictError, UnprocessableError, errorItem } from './errors';

/** The request header: the client's name for one logical write, sent again with each retry of it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The response header of an answer replayed from an earlier request with the same key (Stripe's name). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** The longest key accepted. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** 1–255 printable ASCII characters (0x20–0x7E; HTTP drops spaces at either end). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** Whether `value` is a key the API accepts. */
export function isIdempotencyKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** How long a key is kept at least (hours): a repeat within this time gets the first answer. */
export const IDEMPOTENCY_KEY_MIN_HOURS = 24;

/** The 422 of a key used for another request (method, path, query or body): nothing runs. */
export const idempotencyKeyMismatch = (): UnprocessableError =>
  new UnprocessableError({
    code: 'idempotency_key_mismatch',
    errors: [
      errorItem(
        'this Idempotency-Key was used for a different request (method, path, query or body); ' +
          'use a new key for a new request',
        IDEMPOTENCY_KEY_HEADER,
      ),
    ],
  });

/** The 409 of a repeat while the key's first request still runs, with the seconds to wait (Retry-After). */
export const idempotencyKeyInProgress = (retryAfterSeconds: number): ConflictError =>
  new ConflictError({
    code: 'idempotency_key_in_progress',
    errors: [
      errorItem(
        'a request with this Idempotency-Key is still running; try again after Retry-After',
        IDEMPOTENCY_KEY_HEADER,
      ),
    ],
    retryAfterSeconds,
  });
