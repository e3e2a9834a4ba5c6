/**
 * How long the distributed launcher waits before starting a service again that exited (decisions
 * §50): 1 s after the first exit, doubling with each exit that follows quickly to at most 30 s, and
 * back to 1 s once the service had stayed up a minute. A service that cannot start does not spin;
 * one that crashes once a day comes back at once.
 */
export class RestartBackoff {
  private last = 0;

  constructor(
    private readonly baseMs = 1000,
    private readonly maxMs = 30000,
    private readonly resetAfterMs = 60000,
  ) {}

  /** The wait before the next start, for a process that ran `upMs` before it exited. */
  next(upMs: number): number {
    this.last = this.last === 0 || upMs >= this.resetAfterMs ? this.baseMs : Math.min(this.last * 2, this.maxMs);
    return this.last;
  }
}
