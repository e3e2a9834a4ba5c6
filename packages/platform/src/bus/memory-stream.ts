import { MemoryConsumer } from './memory-consumer';
import type { MessageLog, StoredMessage } from './message-log';
import { subjectContains, subjectMatches, subjectsOverlap } from './subject-names';

/** JetStream's default de-duplication window. */
const DUPLICATE_WINDOW_MS = 120_000;

/**
 * The in-process twin of a JetStream stream: a sequence-numbered log of messages on its subjects,
 * with message-ID de-duplication and durable consumers. With work-queue retention a message is
 * removed once acknowledged (or terminated) and consumers may not overlap; otherwise messages stay,
 * up to `maxMsgs` (oldest dropped first) so a long-lived all-in-one process stays bounded.
 */
export class MemoryStream implements MessageLog {
  private last = 0;

  /** Sequence of the newest message appended so far. */
  get lastSeq(): number {
    return this.last;
  }
  private first = 1;
  private readonly msgs = new Map<number, StoredMessage>();
  private readonly seen = new Map<string, number>();
  private readonly consumers = new Map<string, MemoryConsumer>();

  constructor(
    readonly name: string,
    readonly subjects: readonly string[],
    readonly workQueue: boolean,
    private readonly maxMsgs = 100_000,
  ) {}

  /** Whether a published subject lands in this stream. */
  holds(subject: string): boolean {
    return this.subjects.some((p) => subjectMatches(p, subject));
  }

  /** Stores a message; false for a duplicate (the message is dropped and its body released). */
  append(msg: StoredMessage, opts: { msgId?: string } = {}): boolean {
    if (opts.msgId !== undefined && this.isDuplicate(opts.msgId)) {
      msg.release?.();
      return false;
    }
    this.msgs.set(++this.last, msg);
    if (!this.workQueue && this.msgs.size > this.maxMsgs) this.remove(this.first);
    for (const c of this.consumers.values()) c.notify();
    return true;
  }

  get(seq: number): StoredMessage | undefined {
    return this.msgs.get(seq);
  }

  /** The first sequence after `after` whose subject matches `filter`. */
  nextMatching(after: number, filter: string): number | undefined {
    for (let seq = Math.max(after + 1, this.first); seq <= this.last; seq++) {
      const m = this.msgs.get(seq);
      if (m && subjectMatches(filter, m.subject)) return seq;
    }
    return undefined;
  }

  /** Called when a consumer acknowledges or terminates a message: a work queue forgets it. */
  settled(seq: number): void {
    if (this.workQueue) this.remove(seq);
  }

  private remove(seq: number): void {
    this.msgs.get(seq)?.release?.();
    this.msgs.delete(seq);
    while (this.first <= this.last && !this.msgs.has(this.first)) this.first++;
  }

  /** Messages stored on subjects matching `filter` (for a work queue: jobs not yet acknowledged). */
  count(filter: string): number {
    let n = 0;
    for (const m of this.msgs.values()) if (subjectMatches(filter, m.subject)) n++;
    return n;
  }

  /**
   * Binds (creating on first use) the durable consumer `name`. Refuses a filter outside the stream,
   * and on a work queue a filter overlapping another consumer's — as JetStream does.
   */
  consumer(name: string, filter: string, ackWaitMs: number): MemoryConsumer {
    if (!this.subjects.some((p) => subjectContains(p, filter))) {
      throw new Error(`subject ${filter} is not stored in stream ${this.name} (${this.subjects.join(', ')})`);
    }
    let c = this.consumers.get(name);
    if (!c) {
      const other = this.workQueue
        ? [...this.consumers.values()].find((o) => subjectsOverlap(o.filter, filter))
        : undefined;
      if (other) throw new Error(`work-queue stream ${this.name}: subject ${filter} overlaps consumer ${other.name}`);
      c = new MemoryConsumer(name, filter, this, ackWaitMs);
      this.consumers.set(name, c);
    }
    c.ackWaitMs = ackWaitMs;
    return c;
  }

  close(): void {
    for (const c of this.consumers.values()) c.close();
  }

  private isDuplicate(msgId: string): boolean {
    const now = Date.now();
    for (const [id, at] of this.seen) {
      if (now - at < DUPLICATE_WINDOW_MS) break;
      this.seen.delete(id);
    }
    if (this.seen.has(msgId)) return true;
    this.seen.set(msgId, now);
    return false;
  }
}
