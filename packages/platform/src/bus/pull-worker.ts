import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Subscription } from './port';
import type { Delivery, DeliverySource } from './delivery';

/** Default of `WorkOptions.drainMs`: well inside the 25 s shutdown grace of runProcess. */
export const DEFAULT_DRAIN_MS = 10_000;

/**
 * Drives one durable subscription: `concurrency` slots, each asking its source for one delivery
 * only when it is free, so a subscriber never holds more messages than it is running (the rest
 * stay on the medium for other subscribers, and no ack deadline runs while a message waits here).
 * A source failure (server restarting, consumer briefly missing) is logged and retried.
 *
 * `run` gets a signal per delivery, aborted when `stop()` has waited `drainMs` and the handler is
 * still running (see settle for what a handler rejecting after that means); without `drainMs`
 * (event subscriptions) it is never aborted.
 */
export class PullWorker implements Subscription {
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private running = 0;
  private readonly abort = new AbortController();
  private readonly drain = new AbortController();
  private readonly drainMs: number | undefined;
  private readonly slots: Promise<void>[];

  constructor(
    private readonly source: DeliverySource,
    concurrency: number,
    private readonly run: (d: Delivery, signal: AbortSignal) => Promise<void>,
    private readonly logger: Logger,
    opts: { drainMs?: number } = {},
  ) {
    // Infinity (or anything past what a timer holds, which it would fire at once) means never.
    this.drainMs = opts.drainMs !== undefined && opts.drainMs < 2 ** 31 ? Math.max(0, opts.drainMs) : undefined;
    const n = Math.max(1, Math.floor(concurrency));
    this.slots = Array.from({ length: n }, () => this.slot());
  }

  /**
   * Stops pulling and waits for the handlers in flight (they settle their messages); those still
   * running after `drainMs` have their signal aborted. Resolves once every handler has settled.
   */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopping = true;
      this.abort.abort();
      this.source.close();
      const deadline = this.drainMs === undefined ? undefined : setTimeout(() => this.abortInFlight(), this.drainMs);
      this.stopped = Promise.all(this.slots)
        .then(() => undefined)
        .finally(() => clearTimeout(deadline));
    }
    return this.stopped;
  }

  private abortInFlight(): void {
    if (this.running === 0) return;
    this.logger.warn(
      { running: this.running, drainMs: this.drainMs },
      'stopping: handlers still running after the drain deadline; aborting them',
    );
    this.drain.abort(
      new DOMException(
        `the subscription is stopping and the handler did not finish within ${this.drainMs} ms`,
        'AbortError',
      ),
    );
  }

  private async slot(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      const started = Date.now();
      let d: Delivery | null;
      try {
        d = await this.source.next();
        failures = 0;
      } catch (err) {
        if (this.stopping) break;
        failures++;
        this.logger.warn({ err, failures }, 'pull failed; retrying');
        await this.pause(Math.min(250 * failures, 2000));
        continue;
      }
      if (d === null) {
        // An empty pull normally waits seconds; one that returns at once must not spin.
        if (Date.now() - started < 50) await this.pause(250);
        continue;
      }
      if (this.stopping) {
        d.nak(0);
        break;
      }
      await this.runOne(d);
    }
  }

  /**
   * Runs one delivery with a signal of its own that follows the drain deadline, so listeners a
   * handler leaves on it go with it instead of piling up on the subscription's.
   */
  private async runOne(d: Delivery): Promise<void> {
    const job = new AbortController();
    const follow = () => job.abort(this.drain.signal.reason);
    this.drain.signal.addEventListener('abort', follow, { once: true });
    this.running++;
    try {
      await this.run(d, job.signal).catch((err: unknown) =>
        this.logger.error({ err, subject: d.subject }, 'message handling failed'),
      );
    } finally {
      this.running--;
      this.drain.signal.removeEventListener('abort', follow);
    }
  }

  private async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.abort.signal }).catch(() => undefined);
  }
}
