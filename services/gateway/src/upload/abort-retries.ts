import { ApiError, StorageClient, type Principal } from '@patchbay/contracts';
import type { Bus, Logger, Stoppable } from '@patchbay/platform';
import type { AbortQueue } from '../http/route-def';

/** The first retry of an abort that failed, then each wait twice the one before, up to ABORT_RETRY_MAX_MS. */
export const ABORT_RETRY_FIRST_MS = 1000;
export const ABORT_RETRY_MAX_MS = 30_000;

interface Pending {
  principal: Principal;
  requestId: string;
  attempts: number;
  timer?: NodeJS.Timeout;
}

/**
 * Aborts of failed uploads that storage did not take (the bus was down, storage away), tried again with backoff
 * until storage answers (decisions §49): the pending upload and its blob then go within seconds of the bus coming
 * back, not after UPLOAD_STALE_MS (6 h), which stays the last resort — for a gateway that dies meanwhile, whose
 * list goes with it. Each upload's failure is logged once (warn) and its end once (info).
 */
export class AbortRetries implements Stoppable, AbortQueue {
  private readonly pending = new Map<string, Pending>();
  private stopped = false;

  constructor(
    private readonly bus: Bus,
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Keeps trying to abort `fileSid`, whose abort just failed with `err`. */
  add(principal: Principal, fileSid: string, requestId: string, err: unknown): void {
    if (this.stopped || this.pending.has(fileSid)) return;
    this.log.warn(
      { file_sid: fileSid, err: message(err), retry_in_ms: ABORT_RETRY_FIRST_MS },
      'upload abort failed; retried until storage answers (the stale-upload sweep is the last resort)',
    );
    const p: Pending = { principal, requestId, attempts: 1 };
    this.pending.set(fileSid, p);
    this.schedule(fileSid, p);
  }

  /** Aborts still to retry (for tests and metrics). */
  get size(): number {
    return this.pending.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    if (this.pending.size > 0)
      this.log.warn(
        { count: this.pending.size, file_sids: [...this.pending.keys()] },
        'stopping with upload aborts not done: the stale-upload sweep (UPLOAD_STALE_MS) will remove them',
      );
    this.pending.clear();
  }

  private schedule(fileSid: string, p: Pending): void {
    const delay = Math.min(ABORT_RETRY_FIRST_MS * 2 ** Math.min(p.attempts - 1, 30), ABORT_RETRY_MAX_MS);
    p.timer = setTimeout(() => void this.retry(fileSid, p), delay);
    p.timer.unref();
  }

  private async retry(fileSid: string, p: Pending): Promise<void> {
    if (this.stopped) return;
    p.attempts += 1;
    try {
      const { aborted } = await new StorageClient(this.bus, {
        timeoutMs: this.timeoutMs,
        requestId: p.requestId,
      }).abort(p.principal, fileSid);
      this.pending.delete(fileSid);
      this.log.info({ file_sid: fileSid, attempts: p.attempts, aborted }, 'upload abort done after a retry');
    } catch (err) {
      if (this.stopped) return;
      // A refusal (4xx) will not change by asking again: the sweep has it.
      if (err instanceof ApiError && err.status < 500 && err.status !== 429) {
        this.pending.delete(fileSid);
        this.log.warn({ file_sid: fileSid, err: message(err) }, 'upload abort refused; left to the stale-upload sweep');
        return;
      }
      this.schedule(fileSid, p);
    }
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
