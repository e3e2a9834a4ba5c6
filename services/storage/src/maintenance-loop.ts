import type { Logger, Stoppable } from '@patchbay/platform';

/**
 * The first run waits this long after the service is ready (or the interval, when shorter): in the all-in-one the
 * other services are still starting on the same event loop and database, and a replica's peers may be too.
 */
const FIRST_RUN_DELAY_MS = 10_000;

/**
 * Runs the storage upkeep in the background: first shortly after the service is ready (never before it:
 * its work grows with the stored objects, decisions §49), then every `intervalMs`, one run at a time
 * (a run longer than the interval delays the next instead of overlapping it). `stop()` aborts the run
 * in flight between its steps and batches and waits for it.
 */
export class MaintenanceLoop implements Stoppable {
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private first = true;

  constructor(
    private readonly run: (signal: AbortSignal) => Promise<void>,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  /** Schedules the first run: FIRST_RUN_DELAY_MS (or the interval, when shorter) after the service said it is ready. */
  start(): this {
    this.schedule(Math.min(FIRST_RUN_DELAY_MS, this.intervalMs));
    return this;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      const first = this.first;
      this.first = false;
      this.running = this.run(this.abort.signal)
        .then(() => {
          if (first) this.log.info({ ms: Date.now() - started }, 'start-up maintenance done (the service was ready)');
        })
        .catch((err: unknown) => this.log.error({ err }, first ? 'start-up maintenance failed' : 'maintenance failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.intervalMs);
        });
    }, ms);
    this.timer.unref();
  }
}
