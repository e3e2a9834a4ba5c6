import { backgroundWork, quietly, type Logger } from '@patchbay/platform';

export interface ClaimLoopOptions<T> {
  /** Names the work in traces and logs ("records export run"). */
  name: string;
  pollMs: number;
  /** Claims run at once, at most. */
  concurrency: number;
  /** The next item due, claimed for this process (null: nothing due); run untraced (polls look quietly). */
  claim: () => Promise<T | null>;
  /** Does one claimed item. */
  work: (item: T) => Promise<void>;
  /** Trace attributes of one item's work. */
  attributes: (item: T) => Record<string, string>;
  log: Logger;
}

/**
 * A queue kept in the store, worked by polling (every `pollMs`, and at once when `kick`ed): up to
 * `concurrency` drains at a time, each claiming and working items until none is due. `stop` claims
 * nothing more and resolves once the work in flight has ended. The export runs and their
 * completion callbacks both run on it.
 */
export class ClaimLoop<T> {
  private timer: NodeJS.Timeout | undefined;
  private running = 0;
  private stopping = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly opts: ClaimLoopOptions<T>) {}

  /** True once `stop` was called: long work should end at its next step. */
  get stopped(): boolean {
    return this.stopping;
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for due work now, if there is room. */
  kick(): void {
    if (this.stopping || this.running >= this.opts.concurrency) return;
    this.running += 1;
    void this.drain()
      .catch((err: unknown) => this.opts.log.error({ err }, `${this.opts.name} failed; retrying on the next poll`))
      .finally(() => {
        this.running -= 1;
        if (this.running > 0) return;
        for (const r of this.idle) r();
        this.idle.clear();
      });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    if (this.running > 0) await new Promise<void>((r) => this.idle.add(r));
  }

  private async drain(): Promise<void> {
    while (!this.stopping) {
      const item = await quietly(() => this.opts.claim());
      if (!item) return;
      this.kick();
      await backgroundWork(this.opts.name, this.opts.attributes(item), () => this.opts.work(item));
    }
  }
}
