import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Subscription } from './port';
import type { Delivery, DeliverySource } from './delivery';

/**
 * Drives one durable subscription: `concurrency` slots, each asking its source for one delivery
 * only when it is free, so a subscriber never holds more messages than it is running (the rest
 * stay on the medium for other subscribers, and no ack deadline runs while a message waits here).
 * A source failure (server restarting, consumer briefly missing) is logged and retried.
 */
export class PullWorker implements Subscription {
  private stopping = false;
  private readonly abort = new AbortController();
  private readonly slots: Promise<void>[];

  constructor(
    private readonly source: DeliverySource,
    concurrency: number,
    private readonly run: (d: Delivery) => Promise<void>,
    private readonly logger: Logger,
  ) {
    const n = Math.max(1, Math.floor(concurrency));
    this.slots = Array.from({ length: n }, () => this.slot());
  }

  /** Stops pulling, waits for the handlers in flight (they settle their messages), then resolves. */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.abort.abort();
      this.source.close();
    }
    await Promise.all(this.slots);
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
      await this.run(d).catch((err: unknown) => this.logger.error({ err, subject: d.subject }, 'message handling failed'));
    }
  }

  private async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.abort.signal }).catch(() => undefined);
  }
}
