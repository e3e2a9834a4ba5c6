import type { Logger } from 'pino';
import { UnavailableError } from '@patchbay/contracts';

export interface CircuitSettings {
  /** Unanswered calls in a row that open the circuit. */
  failures: number;
  /** How long an open circuit refuses before it lets one trial request through (ms). */
  openMs: number;
  logger?: Logger;
}

/**
 * One circuit: closed (counting unanswered calls), open (refusing), or half-open (one trial out).
 * `whose` names what it guards in its messages and logs: a service, or one caller of a service.
 */
export class Circuit {
  private misses = 0;
  private openUntil = 0;
  private trial = false;
  /** When the service last answered a call (Date.now()). */
  private lastAnswer = 0;

  constructor(
    private readonly whose: { service: string; caller?: string },
    private readonly opts: CircuitSettings,
  ) {}

  /** Closed, with nothing counted: nothing to remember about it. */
  get idle(): boolean {
    return this.misses === 0 && this.openUntil === 0;
  }

  /**
   * Throws a 503 while open (or while the one trial of a half-open circuit is out); true when the
   * call let through is that trial.
   */
  admit(): boolean {
    if (this.openUntil === 0) return false;
    const now = Date.now();
    if (now >= this.openUntil && !this.trial) {
      this.trial = true;
      return true;
    }
    const wait = Math.max(this.openUntil - now, 1000);
    const { service, caller } = this.whose;
    throw new UnavailableError({
      message: caller
        ? `${service} did not answer this partner's last calls in time; try again shortly`
        : `${service} is not answering (the message bus or the service is down); try again shortly`,
      retryAfterSeconds: wait / 1000,
    });
  }

  /** The service answered (whatever the status: an application error is an answer). */
  answered(): void {
    const wasOpen = this.openUntil !== 0;
    this.lastAnswer = Date.now();
    this.reset();
    if (wasOpen) this.opts.logger?.info(this.whose, 'circuit closed: the service answers again');
  }

  /**
   * A call started at `startedAt` got no answer (timeout, or nobody serves the subject). A timeout
   * while the service answered other calls of this circuit meanwhile is one slow call, not a
   * service that is gone: it does not count.
   */
  missed(startedAt: number, timedOut: boolean): void {
    if (timedOut && this.lastAnswer >= startedAt) return this.settled();
    this.misses += 1;
    if (!this.trial && this.misses < this.opts.failures) return;
    const wasOpen = this.openUntil !== 0;
    this.trial = false;
    this.openUntil = Date.now() + this.opts.openMs;
    if (!wasOpen)
      this.opts.logger?.warn(
        { ...this.whose, open_ms: this.opts.openMs },
        'circuit open: calls fail fast with 503 until the service answers again',
      );
  }

  /** A call that failed on the caller's side (a payload error, say): the trial is over, the count stays. */
  settled(): void {
    this.trial = false;
  }

  reset(): void {
    this.misses = 0;
    this.openUntil = 0;
    this.trial = false;
  }
}
