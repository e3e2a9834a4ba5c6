import type { IdempotentAnswer } from '@patchbay/contracts';

/**
 * One Idempotency-Key of one partner (decisions §48). `running` while the request that claimed it
 * runs — held by `lease_id` until `lease_until`, which the gateway renews; `done` once its answer is
 * kept. `expires_at`: when the record may be forgotten (the key is then new again).
 */
// A type, not an interface: the store's document type (repo.ts) needs it assignable to a record.
export type KeyRecord = {
  partner_sid: string;
  /** SHA-256 of the key: the store never holds the key, which the answer is sealed with. */
  key_hash: string;
  request_hash: string;
  /** Null while a streamed body is still being read by the request that holds the key. */
  body_hash: string | null;
  body_bytes: number | null;
  state: 'running' | 'done';
  lease_id: string;
  lease_until: Date;
  answer: IdempotentAnswer | null;
  date_created: Date;
  expires_at: Date;
};

/** What a request that comes with a key asks: its hashes (body null: streamed, not read yet). */
export interface KeyedRequest {
  request_hash: string;
  body_hash: string | null;
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
export function decideBegin(record: KeyRecord, req: KeyedRequest, now: Date): BeginDecision {
  if (record.expires_at.getTime() <= now.getTime()) return { kind: 'claim' };
  if (record.request_hash !== req.request_hash || !sameBody(record.body_hash, req.body_hash))
    return { kind: 'mismatch' };
  if (record.state === 'done') return { kind: 'replay' };
  if (record.lease_until.getTime() <= now.getTime()) return { kind: 'claim' };
  return { kind: 'in_progress', retryAfterSeconds: IN_PROGRESS_RETRY_SECONDS };
}

/** A record claimed now by `req` (fresh, or over an expired or abandoned one). */
export function claimedRecord(
  owner: { partner_sid: string; key_hash: string },
  req: KeyedRequest,
  lease: { id: string; ms: number },
  ttlMs: number,
  now: Date,
): KeyRecord {
  return {
    partner_sid: owner.partner_sid,
    key_hash: owner.key_hash,
    request_hash: req.request_hash,
    body_hash: req.body_hash,
    body_bytes: null,
    state: 'running',
    lease_id: lease.id,
    lease_until: new Date(now.getTime() + lease.ms),
    answer: null,
    date_created: now,
    expires_at: new Date(now.getTime() + Math.max(ttlMs, lease.ms)),
  };
}
