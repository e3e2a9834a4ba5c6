import type { Delivery } from './delivery';
import type { MessageLog } from './message-log';

type Waiter = (d: Delivery) => void;

/**
 * The in-process twin of a durable JetStream pull consumer with explicit acks: a cursor into its
 * stream (starting at the first message: deliver-policy all), messages handed back by nak or by
 * an expired ack wait (redelivered first, with a higher delivery count), and pulls waiting for a
 * message. Subscribers sharing the consumer share its messages; each is handed to one of them.
 */
export class MemoryConsumer {
  private cursor = 0;
  private tokens = 0;
  private readonly ready: number[] = [];
  private readonly counts = new Map<number, number>();
  private readonly inFlight = new Map<number, { token: number; timer: NodeJS.Timeout }>();
  private readonly delayed = new Map<number, NodeJS.Timeout>();
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly name: string,
    readonly filter: string,
    private readonly stream: MessageLog,
    public ackWaitMs: number,
  ) {}

  /**
   * Asks for the next message: `deliver` is called once (possibly at once) with it. The returned
   * function withdraws a pull not yet served. A callback rather than a promise, so nothing is
   * handed out in a gap where the puller might already have withdrawn.
   */
  pull(deliver: Waiter): () => void {
    const waiter: Waiter = (d) => deliver(d);
    this.waiters.push(waiter);
    this.notify();
    return () => {
      const i = this.waiters.indexOf(waiter);
      if (i >= 0) this.waiters.splice(i, 1);
    };
  }

  /** Hands available messages to waiting pulls (called when the stream grows or a message comes back). */
  notify(): void {
    while (this.waiters.length > 0) {
      const seq = this.take();
      if (seq === undefined) return;
      this.waiters.shift()!(this.deliver(seq));
    }
  }

  /** Clears every timer (hub shutdown). */
  close(): void {
    for (const { timer } of this.inFlight.values()) clearTimeout(timer);
    for (const timer of this.delayed.values()) clearTimeout(timer);
    this.inFlight.clear();
    this.delayed.clear();
  }

  private take(): number | undefined {
    while (this.ready.length > 0) {
      const seq = this.ready.shift()!;
      if (this.stream.get(seq)) return seq;
      this.counts.delete(seq);
    }
    const seq = this.stream.nextMatching(this.cursor, this.filter);
    // Nothing up to the end matched: never scan those messages again (each publish would
    // otherwise rescan the whole history once per idle consumer).
    this.cursor = seq ?? Math.max(this.cursor, this.stream.lastSeq);
    return seq;
  }

  private deliver(seq: number): Delivery {
    const msg = this.stream.get(seq)!;
    const count = (this.counts.get(seq) ?? 0) + 1;
    this.counts.set(seq, count);
    const token = ++this.tokens;
    this.inFlight.set(seq, { token, timer: this.ackTimer(seq, token) });
    return {
      subject: msg.subject,
      data: msg.data,
      ...(msg.load ? { load: msg.load } : {}),
      requestId: msg.requestId,
      traceContext: msg.traceContext,
      deliveryCount: count,
      ack: async () => this.finish(seq, token),
      term: () => this.finish(seq, token),
      nak: (delayMs) => this.handBack(seq, token, delayMs),
      working: () => {
        const f = this.inFlight.get(seq);
        if (f?.token !== token) return;
        clearTimeout(f.timer);
        f.timer = this.ackTimer(seq, token);
      },
    };
  }

  private ackTimer(seq: number, token: number): NodeJS.Timeout {
    return setTimeout(() => this.handBack(seq, token, 0), this.ackWaitMs).unref();
  }

  /** A settle from a delivery that has since expired and been redelivered is ignored. */
  private current(seq: number, token: number): boolean {
    const f = this.inFlight.get(seq);
    if (f?.token !== token) return false;
    clearTimeout(f.timer);
    this.inFlight.delete(seq);
    return true;
  }

  private finish(seq: number, token: number): void {
    if (!this.current(seq, token)) return;
    this.counts.delete(seq);
    this.stream.settled(seq);
  }

  private handBack(seq: number, token: number, delayMs: number): void {
    if (!this.current(seq, token)) return;
    if (delayMs <= 0) {
      this.ready.push(seq);
      this.notify();
      return;
    }
    this.delayed.set(
      seq,
      setTimeout(() => {
        this.delayed.delete(seq);
        this.ready.push(seq);
        this.notify();
      }, delayMs).unref(),
    );
  }
}
