import type { IdempotentAnswer, KeyedRequest } from '@patchbay/contracts';

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

// The rule itself is shared with the services' own kept answers (platform's kept-answers.ts).
export { IN_PROGRESS_RETRY_SECONDS, decideBegin, type BeginDecision, type KeyedRequest } from '@patchbay/contracts';

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
