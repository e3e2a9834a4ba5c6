import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  DuplicateKeyError,
  errorItem,
  type IdempotencyBeginReply,
  type IdempotencyBeginRequest,
  type IdempotencyFinishRequest,
  type IdempotencyReleaseRequest,
  type IdempotencyRenewRequest,
} from '@patchbay/contracts';
import type { Collection, Logger } from '@patchbay/platform';
import { claimedRecord, decideBegin, type KeyRecord } from './domain/idempotency';
import type { IdempotencyKeyDoc } from './domain/documents';

/** Lost races for one key before a 409 (of requests claiming one key at the same instant, each loses at most once). */
const ATTEMPTS = 5;

const date = (d: Date | string): Date => (d instanceof Date ? d : new Date(d));

/** A stored document as the domain reads it (a store may hand dates back as strings). */
function recordOf(doc: IdempotencyKeyDoc): KeyRecord {
  return {
    ...doc,
    lease_until: date(doc.lease_until),
    date_created: date(doc.date_created),
    expires_at: date(doc.expires_at),
  };
}

/**
 * The Idempotency-Key records, in identity's own store: one per partner and key (a unique index),
 * so every gateway replica, and a gateway started again, sees the same keys. Claims are atomic: an
 * insert, or a find-and-modify conditional on the `lease_id` read, so of two requests racing for a
 * key exactly one runs. The rules are in domain/idempotency.ts.
 */
export class IdempotencyKeys {
  private readonly log: Logger;

  constructor(
    private readonly records: Collection<IdempotencyKeyDoc>,
    /** How long a key is kept after its answer (ms). */
    private readonly ttlMs: number,
    logger: Logger,
  ) {
    this.log = logger.child({ mod: 'idempotency' });
  }

  async begin(req: IdempotencyBeginRequest): Promise<IdempotencyBeginReply> {
    const owner = { partner_sid: req.partner_sid, key_hash: req.key_hash };
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const now = new Date();
      const lease = { id: randomUUID(), ms: req.lease_ms };
      const fresh: IdempotencyKeyDoc = claimedRecord(owner, req, lease, this.ttlMs, now);
      const found = await this.records.findOne(owner);
      if (!found) {
        try {
          await this.records.insertOne(fresh);
          return { outcome: 'run', lease_id: lease.id, expires_at: fresh.expires_at.toISOString() };
        } catch (err) {
          if (err instanceof DuplicateKeyError) continue;
          throw err;
        }
      }
      const current = recordOf(found);
      const decision = decideBegin(current, req, now);
      if (decision.kind === 'mismatch') return { outcome: 'mismatch' };
      if (decision.kind === 'in_progress') return { outcome: 'in_progress', retry_after: decision.retryAfterSeconds };
      if (decision.kind === 'replay' && current.answer)
        return {
          outcome: 'replay',
          body_hash: current.body_hash,
          body_bytes: current.body_bytes,
          answer: current.answer,
        };
      // A claim over the record as read: only one of several racing requests matches its lease_id.
      const claimed = await this.records.findOneAndUpdate(
        { ...owner, lease_id: current.lease_id },
        { $set: { ...fresh } },
      );
      if (claimed) {
        if (current.state === 'running' && current.expires_at > now)
          this.log.warn(
            { partner_sid: req.partner_sid, since: current.date_created.toISOString() },
            'idempotency key taken over: its request stopped renewing its claim (its gateway stopped?)',
          );
        return { outcome: 'run', lease_id: lease.id, expires_at: fresh.expires_at.toISOString() };
      }
    }
    throw new ConflictError({
      code: 'idempotency_key_contended',
      errors: [errorItem('requests with this Idempotency-Key keep colliding; try again', 'Idempotency-Key')],
    });
  }

  /** Keeps the answer; the key is then kept `ttlMs` from now. False when the claim is no longer this request's. */
  async finish(req: IdempotencyFinishRequest): Promise<boolean> {
    const now = new Date();
    const done = await this.records.findOneAndUpdate(
      { partner_sid: req.partner_sid, key_hash: req.key_hash, lease_id: req.lease_id, state: 'running' },
      {
        $set: {
          state: 'done',
          body_hash: req.body_hash,
          body_bytes: req.body_bytes,
          answer: req.answer,
          expires_at: new Date(now.getTime() + this.ttlMs),
        },
      },
    );
    if (!done) this.log.warn({ partner_sid: req.partner_sid }, 'idempotency key lost before its answer was kept');
    return done !== null;
  }

  /** Forgets the claim (its answer is not kept), so a retry runs again. */
  async release(req: IdempotencyReleaseRequest): Promise<boolean> {
    const removed = await this.records.deleteOne({
      partner_sid: req.partner_sid,
      key_hash: req.key_hash,
      lease_id: req.lease_id,
      state: 'running',
    });
    return removed > 0;
  }

  /** Extends the claim of a request still running (a long upload). */
  async renew(req: IdempotencyRenewRequest): Promise<boolean> {
    const now = Date.now();
    const { matchedCount } = await this.records.updateOne(
      { partner_sid: req.partner_sid, key_hash: req.key_hash, lease_id: req.lease_id, state: 'running' },
      { $set: { lease_until: new Date(now + req.lease_ms), expires_at: new Date(now + this.ttlMs) } },
    );
    return matchedCount > 0;
  }

  /** Forgets records past their expiry (run periodically). */
  async forgetExpired(now = new Date()): Promise<number> {
    return this.records.deleteMany({ expires_at: { $lt: now } });
  }
}
