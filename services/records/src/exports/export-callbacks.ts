import {
  SecretError,
  nextAttemptDelayMs,
  redactUrl,
  sendSignedCallback,
  type KeyRing,
  type Logger,
  type SendOutcome,
} from '@patchbay/platform';
import type { ExportCallbackAttempt } from '@patchbay/contracts';
import type { ExportSettings } from '../config';
import { serializeExport, type ExportDoc } from '../domain/export-docs';
import type { RecordsRepo } from '../repo';
import { openCallbackKey } from '../secrets/callback-key';
import { ClaimLoop } from '../background/claim-loop';

const POLL_MS = 500;
/** How long a claimed delivery is this process's (longer than an attempt can take). */
const LEASE_MS = 60_000;
/** Attempts kept on the export (the most recent). */
const KEEP_ATTEMPTS = 20;
/** `X-Patchbay-Event` of an export's callback. */
export const EXPORT_EVENT = 'record_export.completed';

/**
 * Delivers the completion callbacks of record exports, one per export: a signed POST of
 * `{event, event_id, export}` (the platform's signed callback: the Voicemail callbacks' signature
 * scheme and outbound-address guard), with `X-Patchbay-Event-Id` the export's event id in every
 * attempt. Claims each due one with a lease (never sent by two processes at once), and records each
 * attempt on the export, retried with backoff until a 2xx or CALLBACK_RETRY_FOR_MS, as the
 * Voicemail callbacks are. The signing key is stored sealed and opened for each attempt; one that does not open
 * (its RECORDS_CREDENTIALS_KEY is not configured) makes the attempt fail with that reason, never sent unsigned.
 */
export class ExportCallbacks {
  private readonly loop: ClaimLoop<ExportDoc>;

  constructor(
    private readonly repo: RecordsRepo,
    private readonly ring: KeyRing,
    private readonly settings: ExportSettings['callbacks'],
    private readonly log: Logger,
  ) {
    this.loop = new ClaimLoop({
      name: 'records export callback',
      pollMs: POLL_MS,
      concurrency: 2,
      claim: () => this.claim(),
      work: (due) => this.attempt(due),
      attributes: (due) => ({ 'patchbay.export_sid': due.export_sid }),
      log,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for a due callback now. */
  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private claim(): Promise<ExportDoc | null> {
    const now = new Date();
    return this.repo.exports.findOneAndUpdate(
      {
        'callback.state': 'pending',
        'callback.next_attempt_at': { $lte: now },
        $or: [{ 'callback.lease_until': null }, { 'callback.lease_until': { $lt: now } }],
      },
      { $set: { 'callback.lease_until': new Date(now.getTime() + LEASE_MS) } },
    );
  }

  /** The export's signing key opened, or null (logged) when its credentials key is not configured. */
  private signingKey(doc: ExportDoc): string | null {
    if (!doc.callback) return null;
    try {
      return openCallbackKey(this.ring, doc.export_sid, doc.callback.key);
    } catch (err) {
      if (!(err instanceof SecretError)) throw err;
      this.log.error(
        { export_sid: doc.export_sid, partner_sid: doc.partner_sid, kid: err.kid, reason: err.message },
        'export callback key cannot be decrypted: add its key to RECORDS_CREDENTIALS_OLD_KEYS and restart',
      );
      return null;
    }
  }

  private async attempt(doc: ExportDoc): Promise<void> {
    const cb = doc.callback;
    if (!cb) return;
    const key = this.signingKey(doc);
    const outcome: SendOutcome =
      key === null
        ? { kind: 'failed', reason: 'the signing key cannot be decrypted on the server (its key is not configured)' }
        : await sendSignedCallback(
            {
              url: cb.url,
              method: 'POST',
              fields: { event: EXPORT_EVENT, event_id: cb.event_id, export: serializeExport(doc) },
              key,
              event: EXPORT_EVENT,
              eventId: cb.event_id,
              spanName: 'records export callback',
            },
            this.settings,
          );
    const attempts = cb.attempt_count + 1;
    const record: ExportCallbackAttempt = {
      date: new Date().toISOString(),
      outcome: outcome.kind,
      status:
        outcome.kind === 'delivered' ? outcome.status : outcome.kind === 'failed' ? (outcome.status ?? null) : null,
      reason: outcome.kind === 'delivered' ? null : outcome.reason,
    };
    const kept = [...cb.attempts, record].slice(-KEEP_ATTEMPTS);
    const where = { export_sid: doc.export_sid, attempt: attempts, url: redactUrl(cb.url) };
    const base = { 'callback.attempt_count': attempts, 'callback.attempts': kept, 'callback.lease_until': null };
    const sel = { export_sid: doc.export_sid, 'callback.state': 'pending' as const };
    if (outcome.kind === 'delivered') {
      await this.repo.exports.updateOne(sel, {
        $set: {
          ...base,
          'callback.state': 'delivered',
          'callback.date_delivered': new Date(),
          'callback.next_attempt_at': null,
        },
      });
      this.log.info({ ...where, status: outcome.status }, 'export callback delivered');
      return;
    }
    const nextAt = Date.now() + nextAttemptDelayMs(attempts, this.settings.retryBaseMs);
    const since = new Date(doc.date_completed ?? doc.date_created).getTime();
    if (outcome.kind === 'refused' || nextAt - since > this.settings.retryForMs) {
      await this.repo.exports.updateOne(sel, {
        $set: { ...base, 'callback.state': 'failed', 'callback.next_attempt_at': null },
      });
      this.log.warn({ ...where, reason: outcome.reason }, 'export callback not delivered; given up');
      return;
    }
    await this.repo.exports.updateOne(sel, { $set: { ...base, 'callback.next_attempt_at': new Date(nextAt) } });
    this.log.warn({ ...where, reason: outcome.reason }, 'export callback failed; will retry');
  }
}
