import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Value } from '@sinclair/typebox/value';
import {
  DuplicateKeyError,
  IN_PROGRESS_RETRY_SECONDS,
  KeyedWriteSchema,
  decideBegin,
  idempotencyKeyInProgress,
  idempotencyKeyMismatch,
  isBusReply,
  replyForError,
  type BusReply,
  type KeyedWrite,
} from '@patchbay/contracts';
import { openWithKey, sealWithKey } from '../basics/gcm-seal';
import { isJsonObject } from '../basics/json-object';
import type { Collection, DocStore } from '../doc-store/port';

/**
 * A service's own answer to a write sent with an Idempotency-Key (decisions §48), kept under the
 * partner and the key's hash: `running` while the write runs (held by `lease_id` until
 * `lease_until`), `done` with the answer sealed under the key the gateway derived from the client's.
 */
// A type, not an interface: the store's document type needs it assignable to a record.
export type KeptAnswerDoc = {
  partner_sid: string;
  key_hash: string;
  /** The gateway's hash of the whole request (method, path, query, body). */
  fingerprint: string;
  state: 'running' | 'done';
  lease_id: string;
  lease_until: Date;
  sealed_reply: string | null;
  expires_at: Date;
};

/** How long a write may run before a repeat under its key takes it over (its service died mid-write). */
const LEASE_MS = 60_000;
/** How often answers past their expiry are forgotten (on the way, by the next keyed write). */
const SWEEP_EVERY_MS = 10 * 60_000;

/** The keyed write a checked GatewayRequest carries (its partner and key), or null. */
function keyedWriteOf(message: unknown): { partnerSid: string; keyed: KeyedWrite } | null {
  if (!isJsonObject(message) || message.idempotency === undefined || !isJsonObject(message.principal)) return null;
  const partnerSid = message.principal.partner_sid;
  const keyed = message.idempotency;
  if (typeof partnerSid !== 'string' || !Value.Check(KeyedWriteSchema, keyed)) return null;
  return { partnerSid, keyed };
}

/**
 * The answers a service keeps to keyed writes, so a retry whose first answer was lost on the way
 * back (a bus timeout at the gateway, NATS down: the gateway then lets the client's key go) is
 * answered what the first attempt did instead of running the write again — no second endpoint,
 * container or application. The gateway's own record in identity covers answers it received; this
 * one covers the answers it did not. Kept below 500 only, like the gateway's.
 */
export class KeptAnswers {
  private lastSweep = 0;

  constructor(
    private readonly answers: Collection<KeptAnswerDoc>,
    private readonly log: Logger,
  ) {}

  /** The `kept_answers` collection of a service's store, with its indexes. */
  static async open(docs: DocStore, log: Logger): Promise<KeptAnswers> {
    const answers = docs.collection<KeptAnswerDoc>('kept_answers');
    await answers.createIndex({ partner_sid: 1, key_hash: 1 }, { unique: true });
    await answers.createIndex({ expires_at: 1 });
    return new KeptAnswers(answers, log.child({ mod: 'kept-answers' }));
  }

  /** Answers a request: a keyed write through `once`, anything else by running it. */
  serve(message: unknown, run: () => Promise<BusReply>): Promise<BusReply> {
    const keyed = keyedWriteOf(message);
    return keyed ? this.once(keyed.partnerSid, keyed.keyed, run) : run();
  }

  /** Runs the write once per key: a repeat gets the kept answer, a 409 while it runs, a 422 for another request. */
  async once(partnerSid: string, keyed: KeyedWrite, run: () => Promise<BusReply>): Promise<BusReply> {
    const now = Date.now();
    this.sweep(now);
    const owner = { partner_sid: partnerSid, key_hash: keyed.key_hash };
    const lease = { lease_id: randomUUID(), lease_until: new Date(now + LEASE_MS) };
    const claimed = await this.claim(owner, keyed, lease, now);
    if (claimed !== true) return claimed;
    let answer: BusReply;
    try {
      answer = await run();
    } catch (err) {
      await this.forget(owner, lease.lease_id);
      throw err;
    }
    if (answer.status >= 500) await this.forget(owner, lease.lease_id);
    else await this.keep(owner, lease.lease_id, answer, keyed);
    return answer;
  }

  /**
   * True when this attempt holds the key now; otherwise the answer to give instead. The rule is the
   * gateway's (contracts' decideBegin): the fingerprint stands for the whole request.
   */
  private async claim(
    owner: { partner_sid: string; key_hash: string },
    keyed: KeyedWrite,
    lease: { lease_id: string; lease_until: Date },
    now: number,
  ): Promise<true | BusReply> {
    const fresh: KeptAnswerDoc = {
      ...owner,
      fingerprint: keyed.fingerprint,
      state: 'running',
      ...lease,
      sealed_reply: null,
      expires_at: new Date(Math.max(Date.parse(keyed.expires_at) || 0, now + LEASE_MS)),
    };
    try {
      await this.answers.insertOne(fresh);
      return true;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    const found = await this.answers.findOne(owner);
    if (!found) return replyForError(idempotencyKeyInProgress(IN_PROGRESS_RETRY_SECONDS));
    const record = {
      request_hash: found.fingerprint,
      body_hash: null,
      state: found.state,
      lease_until: new Date(found.lease_until),
      expires_at: new Date(found.expires_at),
    };
    const decision = decideBegin(record, { request_hash: keyed.fingerprint, body_hash: null }, new Date(now));
    switch (decision.kind) {
      case 'mismatch':
        return replyForError(idempotencyKeyMismatch());
      case 'in_progress':
        return replyForError(idempotencyKeyInProgress(decision.retryAfterSeconds));
      case 'replay':
        if (found.sealed_reply === null) return replyForError(idempotencyKeyInProgress(IN_PROGRESS_RETRY_SECONDS));
        this.log.info({ partner_sid: owner.partner_sid }, 'keyed write answered again: its answer was kept');
        return openReply(found.sealed_reply, keyed);
      case 'claim': {
        // Expired, or its attempt stopped holding it (the service died mid-write): this one runs it.
        const taken = await this.answers.findOneAndUpdate({ ...owner, lease_id: found.lease_id }, { $set: fresh });
        return taken ? true : replyForError(idempotencyKeyInProgress(IN_PROGRESS_RETRY_SECONDS));
      }
    }
  }

  private async keep(
    owner: { partner_sid: string; key_hash: string },
    leaseId: string,
    answer: BusReply,
    keyed: KeyedWrite,
  ): Promise<void> {
    try {
      const sealed = sealWithKey(Buffer.from(JSON.stringify(answer)), Buffer.from(keyed.seal_key, 'base64'));
      await this.answers.updateOne({ ...owner, lease_id: leaseId }, { $set: { state: 'done', sealed_reply: sealed } });
    } catch (err) {
      // The write is done and answered; only a repeat after a lost answer would run it again.
      this.log.warn({ partner_sid: owner.partner_sid, err: String(err) }, 'keyed write answer not kept');
    }
  }

  private async forget(owner: { partner_sid: string; key_hash: string }, leaseId: string): Promise<void> {
    try {
      await this.answers.deleteOne({ ...owner, lease_id: leaseId, state: 'running' });
    } catch (err) {
      // The lease lapses by itself after LEASE_MS; a repeat then runs again.
      this.log.warn({ partner_sid: owner.partner_sid, err: String(err) }, 'keyed write not released');
    }
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.answers.deleteMany({ expires_at: { $lt: new Date(now) } }).catch((err: unknown) => {
      this.log.warn({ err: String(err) }, 'expired kept answers not swept');
    });
  }
}

/** A kept answer opened with the request's key; one that does not open is refused, never run again. */
function openReply(sealed: string, keyed: KeyedWrite): BusReply {
  try {
    const parsed: unknown = JSON.parse(openWithKey(sealed, Buffer.from(keyed.seal_key, 'base64')).toString());
    if (isBusReply(parsed)) return parsed;
  } catch {
    // Falls through: the same key always derives the same seal key, so the record was changed.
  }
  return replyForError(idempotencyKeyMismatch());
}
