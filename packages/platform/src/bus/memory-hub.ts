import { Streams, type BusReply } from '@patchbay/contracts';
import type { MessageContext } from './port';
import { MemoryStream } from './memory-stream';
import { subjectMatches } from './subject-names';

/** A member of a queue group serving a subject; `answer` is null once it has stopped taking requests. */
export interface MemoryResponder {
  readonly subject: string;
  readonly queue: string;
  answer(data: Uint8Array, ctx: MessageContext): Promise<BusReply> | null;
}

/**
 * The shared medium of the in-process bus — what a nats-server is to NATS connections. Every
 * MemoryBus handle on one hub sees the same queue groups, the same event log and the same work
 * queues, so several handles behave like several processes on one server.
 */
export class MemoryHub {
  /** `Streams.events`: every event kept, so a durable subscribing late still gets the history. */
  readonly events = new MemoryStream(Streams.events.name, Streams.events.subjects, false);
  /** `Streams.jobs`: work-queue retention, a job is gone once acknowledged. */
  readonly jobs = new MemoryStream(Streams.jobs.name, Streams.jobs.subjects, true);
  private readonly responders = new Set<MemoryResponder>();
  /** Live `listen` handlers: every published message matching their subject, no history. */
  readonly listeners = new Set<{
    subject: string;
    deliver(subject: string, data: Uint8Array, ctx: MessageContext): void;
  }>();
  private readonly turns = new Map<string, number>();

  addResponder(r: MemoryResponder): void {
    this.responders.add(r);
  }

  removeResponder(r: MemoryResponder): void {
    this.responders.delete(r);
  }

  /** One member of each queue group whose subject matches, taking turns within a group. */
  route(subject: string): MemoryResponder[] {
    const groups = new Map<string, MemoryResponder[]>();
    for (const r of this.responders) {
      if (!subjectMatches(r.subject, subject)) continue;
      const members = groups.get(r.queue) ?? [];
      members.push(r);
      groups.set(r.queue, members);
    }
    return [...groups].map(([queue, members]) => {
      const turn = this.turns.get(queue) ?? 0;
      this.turns.set(queue, turn + 1);
      return members[turn % members.length];
    });
  }

  /** Fans a published message out to every live listener of its subject. */
  notify(subject: string, data: Uint8Array, ctx: MessageContext): void {
    for (const l of this.listeners) if (subjectMatches(l.subject, subject)) l.deliver(subject, data, ctx);
  }

  /** The stream a published subject lands in, if any (JetStream's no-responders otherwise). */
  streamFor(subject: string): MemoryStream | undefined {
    return [this.events, this.jobs].find((s) => s.holds(subject));
  }
}
