/** Counts handlers still running so a stopping subscription can wait for them to finish. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Tracks `work` until it settles; its outcome is the caller's to handle. */
  track<T>(work: Promise<T>): Promise<T> {
    const p: Promise<void> = work
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.running.delete(p);
      });
    this.running.add(p);
    return work;
  }

  /** Resolves once everything tracked so far (and anything tracked meanwhile) has settled. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
