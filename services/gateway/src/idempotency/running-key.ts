import type { Response } from 'express';
import type { IdentityClient, IdempotentAnswer, KeyedWrite, UploadIdempotency } from '@patchbay/contracts';
import type { Logger } from '@patchbay/platform';
import type { BodyDigest } from './body-digest';
import { holdAnswer, type SentAnswer } from './answer-capture';
import { fingerprintOf } from './request-fingerprint';
import { keyHashOf, sealBody, sealingKey } from './answer-seal';

/**
 * How long a claim holds without renewal: a gateway that dies leaves its keys to a retry after this
 * (until then a retry is a 409 with Retry-After). Short, since a request still running renews it.
 */
export const LEASE_MS = 30_000;
/** How often a request still running renews its claim (three chances before it lapses). */
const RENEW_MS = 10_000;
/** The largest answer kept (bytes); a larger one is not kept and the key goes (decisions §48). */
export const MAX_KEPT_ANSWER_BYTES = 256 * 1024;

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** The request that holds a key: its claim, and what its answer is kept with. */
export interface ClaimedKey {
  partner_sid: string;
  key: string;
  lease_id: string;
  expires_at: string;
  request_hash: string;
  /** A parsed body's hash (known from the start), or the streamed body's digest (known once read). */
  body: { hash: string } | { digest: BodyDigest };
}

/** The key each response in flight holds (for the upload's commit: running-key.ts's `uploadIdempotency`). */
const running = new WeakMap<Response, RunningKey>();

/** The key this response's request holds, if it came with one that runs. */
export function runningKeyOf(res: Response | undefined): RunningKey | undefined {
  return res ? running.get(res) : undefined;
}

/**
 * A key whose request runs: its claim renewed until the answer, then the answer kept (status below
 * 500, the whole body read, a JSON or empty answer within MAX_KEPT_ANSWER_BYTES) or the key
 * released, before the answer leaves — so a client that has an answer can count on a repeat
 * replaying it. A client that goes away before its body arrived releases it too: a retry runs again.
 */
export class RunningKey {
  private renewal: NodeJS.Timeout | undefined;
  private settled = false;

  constructor(
    private readonly claim: ClaimedKey,
    private readonly identity: IdentityClient,
    private readonly log: Logger,
  ) {}

  /** Starts renewing the claim and holds `res`'s answer for settling. */
  attach(res: Response): void {
    running.set(res, this);
    this.renewal = setInterval(() => void this.renew(), RENEW_MS);
    this.renewal.unref();
    holdAnswer(res, MAX_KEPT_ANSWER_BYTES, (answer) => this.settle(answer));
    if (res.closed) this.onClientGone(res);
    else res.once('close', () => this.onClientGone(res));
  }

  /**
   * The client went away before the answer. If its body had not arrived whole, nothing ran on it:
   * the key goes now and a retry runs. Otherwise the request goes on, and the key stays claimed until
   * its answer is kept — a retry meanwhile is a 409, then the replay — so a retry never runs the
   * write a second time beside the first. A request that never answers lets the key go after LEASE_MS.
   */
  private onClientGone(res: Response): void {
    if (this.settled) return;
    if (!res.req.complete) return void this.settle(null);
    setTimeout(() => void this.settle(null), LEASE_MS).unref();
  }

  /** The request's key for storage's prepare (a retry is not refused for its own committed file). */
  get key(): string {
    return this.claim.key;
  }

  /**
   * The key as storage's commit takes it, once the body has been read whole (a multipart body may
   * still be ending: waited for a moment); undefined when it cannot be known.
   */
  async uploadIdempotency(): Promise<UploadIdempotency | undefined> {
    const body = this.claim.body;
    const hash = 'hash' in body ? body.hash : await body.digest.complete(5_000);
    if (!hash) return undefined;
    return {
      key: this.claim.key,
      fingerprint: fingerprintOf(this.claim.request_hash, hash),
      expires_at: this.claim.expires_at,
    };
  }

  /**
   * The key as a service keeps its own answer under it (a forwarded write, whose body is parsed): so a
   * retry after an answer lost between the service and this gateway gets that answer, not a second write.
   */
  keyedWrite(): KeyedWrite | undefined {
    const { body, key, partner_sid, request_hash, expires_at } = this.claim;
    if (!('hash' in body)) return undefined;
    return {
      key_hash: keyHashOf(key),
      fingerprint: fingerprintOf(request_hash, body.hash),
      seal_key: sealingKey(partner_sid, key).toString('base64'),
      expires_at,
    };
  }

  private bodyHash(): string | null {
    const body = this.claim.body;
    return 'hash' in body ? body.hash : body.digest.digest();
  }

  private async renew(): Promise<void> {
    const { partner_sid, key, lease_id } = this.claim;
    try {
      const { held } = await this.identity.idempotencyRenew({
        partner_sid,
        key_hash: keyHashOf(key),
        lease_id,
        lease_ms: LEASE_MS,
      });
      if (!held) {
        clearInterval(this.renewal);
        this.log.warn({ partner_sid }, 'idempotency key lost while its request ran');
      }
    } catch (err) {
      this.log.warn({ partner_sid, err: String(err) }, 'idempotency key not renewed; trying again');
    }
  }

  /** Keeps the answer or releases the key (null: no answer was sent). Never rejects. */
  private async settle(sent: SentAnswer | null): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    clearInterval(this.renewal);
    const { partner_sid, key, lease_id } = this.claim;
    const bodyHash = this.bodyHash();
    const answer = sent && bodyHash ? keptAnswer(sent, partner_sid, key) : null;
    const key_hash = keyHashOf(key);
    try {
      if (answer && bodyHash) {
        const bytes = 'digest' in this.claim.body ? this.claim.body.digest.lengthAsSent() : null;
        await this.identity.idempotencyFinish({
          partner_sid,
          key_hash,
          lease_id,
          body_hash: bodyHash,
          body_bytes: bytes,
          answer,
        });
      } else {
        await this.identity.idempotencyRelease({ partner_sid, key_hash, lease_id });
      }
    } catch (err) {
      // The claim lapses by itself after LEASE_MS; a retry then runs again.
      this.log.warn({ partner_sid, err: String(err) }, 'idempotency key could not be settled');
    }
  }
}

/**
 * The answer as kept (its body sealed, answer-seal.ts), or null when it is not kept: a 5xx, a body
 * too large or written in pieces, a body that is not JSON.
 */
function keptAnswer(sent: SentAnswer, partnerSid: string, key: string): IdempotentAnswer | null {
  if (sent.status >= 500 || sent.body === null) return null;
  const type = sent.headers['content-type'] ?? '';
  if (sent.body.length > 0 && !JSON_TYPE.test(type)) return null;
  return { status: sent.status, headers: sent.headers, sealed_body: sealBody(sent.body, partnerSid, key) };
}
