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

/** What a request that comes with a key asks: its hashes (body null: streamed, not read yet). */
export interface KeyedRequest {
  request_hash: string;
  body_hash: string | null;
}

/**
 * A key's record as the rule reads it: identity's (the gateway's keys) and a service's kept answers.
 * `running` while the request that claimed it runs, held until `lease_until`; `done` once its answer
 * is kept; forgotten (the key new again) at `expires_at`.
 */
export interface KeyClaim {
  request_hash: string;
  /** Null while a streamed body is still being read by the request that holds the key. */
  body_hash: string | null;
  state: 'running' | 'done';
  lease_until: Date;
  expires_at: Date;
}

/**
 * What to do with a request whose key already has a record: `claim` it (the record has expired, or
 * its holder stopped renewing it: its gateway died), answer `in_progress` (409), `mismatch` (422),
 * or `replay` the kept answer.
 */
export type BeginDecision =
  { kind: 'claim' } | { kind: 'in_progress'; retryAfterSeconds: number } | { kind: 'mismatch' } | { kind: 'replay' };

/** How soon a client is told to try again while the first request runs. */
export const IN_PROGRESS_RETRY_SECONDS = 2;

/** Whether two body hashes can be of the same body: equal, or one still unknown (a streamed body). */
const sameBody = (a: string | null, b: string | null) => a === null || b === null || a === b;

/**
 * The rule for a request that finds `record` under its key. The request must be the one the key
 * was used for (method, path, query, and the body when both hashes are known), whatever the
 * record's state: a different one is a mismatch even while the first runs.
 */
export function decideBegin(record: KeyClaim, req: KeyedRequest, now: Date): BeginDecision {
  if (record.expires_at.getTime() <= now.getTime()) return { kind: 'claim' };
  if (record.request_hash !== req.request_hash || !sameBody(record.body_hash, req.body_hash))
    return { kind: 'mismatch' };
  if (record.state === 'done') return { kind: 'replay' };
  if (record.lease_until.getTime() <= now.getTime()) return { kind: 'claim' };
  return { kind: 'in_progress', retryAfterSeconds: IN_PROGRESS_RETRY_SECONDS };
}
