/** A run refused because `maxWaiting` runs already wait: the caller is told to come back later. */
export class LimiterFullError extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} runs are already waiting`);
    this.name = 'LimiterFullError';
  }
}

/**
 * At most `limit` ffmpeg processes at once for one kind of work in this replica; the rest wait in
 * FIFO order, at most `maxWaiting` of them (beyond: LimiterFullError at once, nothing queued).
 */
export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting = Infinity,
  ) {}

  /** Runs `work` once a slot is free; aborting `signal` while it waits gives up its place (rejects with the reason). */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw new LimiterFullError(this.waiting.length);
      await this.turn(signal);
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  private turn(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      this.waiting.push(go);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }
}
