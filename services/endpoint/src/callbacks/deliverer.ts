import { backgroundWork, Counter, quietly, type Logger, type ServiceDeps } from '@patchbay/platform';
import type { CallbackSettings } from '../config';
import { nextAttemptDelayMs } from '../domain/callback-signature';
import type { CallbackDoc } from '../domain/documents';
import type { EndpointRepo } from '../repo';
import { sendCallback, type SendOutcome } from './sender';

/** How often the outbox is looked at when nothing new was scheduled here. */
const POLL_MS = 500;
/** How long a claimed delivery is this replica's (longer than an attempt can take). */
const LEASE_MS = 60_000;
/** Deliveries in flight at once per replica. */
const CONCURRENCY = 4;

/**
 * Delivers the Voicemail callbacks in the outbox (`voicemail_callbacks`): claims each due one with
 * a lease (so two replicas never send it at once, and one that died mid-attempt is taken over when
 * its lease ends), sends it, and records the outcome — delivered, retried later with backoff, or
 * given up (refused, or still failing after `retryForMs`). Every attempt is logged and counted
 * (`voicemail_callback_attempts_total{outcome}`).
 */
export class CallbackDeliverer {
  private readonly log: Logger;
  private readonly attempts: Counter<'outcome'>;
  private timer: NodeJS.Timeout | undefined;
  private running = 0;
  private stopped = false;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly repo: EndpointRepo,
    private readonly settings: CallbackSettings,
    logger: Logger,
    metrics: ServiceDeps['metrics'],
  ) {
    this.log = logger.child({ mod: 'voicemail-callbacks' });
    this.attempts = new Counter({
      name: 'voicemail_callback_attempts_total',
      help: 'Voicemail callback attempts by outcome',
      labelNames: ['outcome'],
      registers: [metrics],
    });
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /**
   * Looks for due deliveries now (also called when one was just scheduled): starts one worker, if
   * there is room. A worker that finds a delivery starts another before attempting it, so a full
   * outbox is drained CONCURRENCY at a time, and an empty one costs one query per poll.
   */
  kick(): void {
    if (this.stopped || this.running >= CONCURRENCY) return;
    this.running += 1;
    void this.drain()
      .catch((err: unknown) => this.log.error({ err }, 'callback delivery failed; retrying on the next poll'))
      .finally(() => {
        this.running -= 1;
        this.settled();
      });
  }

  /**
   * Claims and attempts due deliveries until none is left. Looking is quiet (no trace for a poll
   * that finds nothing, twice a second); each delivery found is a trace of its own
   * (`voicemail callback deliver`, with the attempt and the outcome's store writes under it).
   */
  private async drain(): Promise<void> {
    while (!this.stopped) {
      const due = await quietly(() => this.claim());
      if (!due) return;
      this.kick();
      await backgroundWork('voicemail callback deliver', { 'patchbay.callback.attempt': due.attempts + 1 }, () =>
        this.attempt(due),
      );
    }
  }

  /** Stops claiming; resolves once the attempts in flight have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.running > 0) await new Promise<void>((r) => this.idle.add(r));
  }

  private settled(): void {
    if (this.running > 0) return;
    for (const r of this.idle) r();
    this.idle.clear();
  }

  /** Claims one due delivery for this replica (a lease), or null when none is due. */
  private claim(): Promise<CallbackDoc | null> {
    const now = new Date();
    return this.repo.callbacks.findOneAndUpdate(
      { state: 'pending', next_attempt_at: { $lte: now }, $or: [{ lease_until: null }, { lease_until: { $lt: now } }] },
      { $set: { lease_until: new Date(now.getTime() + LEASE_MS) } },
    );
  }

  private async attempt(d: CallbackDoc): Promise<void> {
    const where = { file_sid: d.file_sid, endpoint_sid: d.endpoint_sid, attempt: d.attempts + 1 };
    const endpoint = await this.repo.endpoints.findOne({ endpoint_sid: d.endpoint_sid, partner_sid: d.partner_sid });
    const key = typeof endpoint?.properties?.password === 'string' ? endpoint.properties.password : null;
    const outcome: SendOutcome = key
      ? await sendCallback({ url: d.callback_url, method: d.callback_method, fields: d.fields, key }, this.settings)
      : { kind: 'refused', reason: 'the Voicemail endpoint no longer exists' };
    const attempts = d.attempts + 1;
    const base = { attempts, lease_until: null };
    if (outcome.kind === 'delivered') {
      await this.repo.callbacks.updateOne(
        { file_sid: d.file_sid },
        { $set: { ...base, state: 'delivered', date_delivered: new Date(), next_attempt_at: null, last_error: null } },
      );
      this.attempts.inc({ outcome: 'delivered' });
      this.log.info({ ...where, status: outcome.status, url: redact(d.callback_url) }, 'voicemail callback delivered');
      return;
    }
    const nextAt = Date.now() + nextAttemptDelayMs(attempts, this.settings.retryBaseMs);
    const giveUp = outcome.kind === 'refused' || nextAt - new Date(d.date_created).getTime() > this.settings.retryForMs;
    if (giveUp) {
      const reason =
        outcome.kind === 'refused'
          ? `refused: ${outcome.reason}`
          : `gave up after ${attempts} attempts: ${outcome.reason}`;
      await this.repo.callbacks.updateOne(
        { file_sid: d.file_sid },
        { $set: { ...base, state: 'failed', next_attempt_at: null, last_error: reason } },
      );
      this.attempts.inc({ outcome: outcome.kind === 'refused' ? 'refused' : 'gave_up' });
      this.log.warn({ ...where, reason, url: redact(d.callback_url) }, 'voicemail callback not delivered');
      return;
    }
    await this.repo.callbacks.updateOne(
      { file_sid: d.file_sid },
      { $set: { ...base, next_attempt_at: new Date(nextAt), last_error: outcome.reason } },
    );
    this.attempts.inc({ outcome: 'failed' });
    this.log.warn(
      { ...where, reason: outcome.reason, retry_in_ms: nextAt - Date.now(), url: redact(d.callback_url) },
      'voicemail callback failed; will retry',
    );
  }
}

/** A URL for the log: without credentials or query (they may hold secrets of the receiver). */
function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
