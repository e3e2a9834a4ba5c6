/** Tracks promises in flight, so a client is closed only after its sends finish. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(p: Promise<T>): Promise<T> {
    this.running.add(p);
    const forget = () => {
      this.running.delete(p);
    };
    p.then(forget, forget);
    return p;
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
