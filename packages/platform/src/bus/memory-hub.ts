import { Streams } from '@patchbay/contracts';
import type { MessageContext } from './port';
import { BusPayloadError } from './bus-errors';
import type { StoredMessage } from './message-log';
import { MemoryStream } from './memory-stream';
import { MemoryBodyStore, MemoryWire } from './memory-wire';
import { subjectMatches } from './subject-names';

const MATCH_CACHE_SIZE = 1000;

/** A request or reply on the hub: its bytes, or the CHUNKED_HEADER value of a chunked one. */
export interface WireMessage {
  data: Uint8Array;
  chunked?: string;
}

/** A member of a queue group serving a subject; `answer` is null once it has stopped taking requests. */
export interface MemoryResponder {
  readonly subject: string;
  readonly queue: string;
  /** Never rejects: every failure is an error reply. */
  answer(msg: WireMessage, ctx: MessageContext): Promise<WireMessage> | null;
}

export interface MemoryHubOptions {
  /**
   * The largest single message, as a nats-server's max_payload (BUS_MAX_PAYLOAD; 0 or unset: no
   * limit). With it, larger messages take the same chunked and stored paths as over NATS, and a
   * message that would reach NATS whole but too large fails here too.
   */
  maxPayload?: number;
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
  /**
   * The responders whose subject matches a subject, by subject: matching every pattern against every request
   * cost the embedded mode's busiest thread a few per cent. Emptied when a responder comes or goes, and
   * when it grows past MATCH_CACHE_SIZE (subjects carrying ids would otherwise grow it without end).
   */
  private readonly matching = new Map<string, MemoryResponder[]>();
  /** Live `listen` handlers: every published message matching their subject, no history. */
  readonly listeners = new Set<{
    subject: string;
    deliver(subject: string, msg: StoredMessage, ctx: MessageContext): void;
  }>();
  private readonly turns = new Map<string, number>();
  /** The largest single message (Infinity: no limit). */
  readonly maxPayload: number;
  /** Private subjects for chunked requests and replies. */
  readonly wire: MemoryWire;
  /** Bodies of events and jobs too large for one message. */
  readonly bodies = new MemoryBodyStore();

  constructor(opts: MemoryHubOptions = {}) {
    this.maxPayload = opts.maxPayload || Infinity;
    this.wire = new MemoryWire((data, what) => this.carry(data, what));
  }

  /** Refuses a single message over max_payload, as a nats-server does (nats.js: MAX_PAYLOAD_EXCEEDED). */
  carry(data: Uint8Array, what: string): void {
    if (data.length > this.maxPayload)
      throw new BusPayloadError({
        message: `${what}: ${data.length} bytes in one message is over the bus's max_payload of ${this.maxPayload}`,
      });
  }

  addResponder(r: MemoryResponder): void {
    this.responders.add(r);
    this.matching.clear();
  }

  removeResponder(r: MemoryResponder): void {
    this.responders.delete(r);
    this.matching.clear();
  }

  /** One member of each queue group whose subject matches, taking turns within a group. */
  route(subject: string): MemoryResponder[] {
    const groups = new Map<string, MemoryResponder[]>();
    for (const r of this.matchingResponders(subject)) {
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

  private matchingResponders(subject: string): MemoryResponder[] {
    let found = this.matching.get(subject);
    if (!found) {
      found = [...this.responders].filter((r) => subjectMatches(r.subject, subject));
      if (this.matching.size >= MATCH_CACHE_SIZE) this.matching.clear();
      this.matching.set(subject, found);
    }
    return found;
  }

  /** Fans a published message out to every live listener of its subject. */
  notify(subject: string, msg: StoredMessage, ctx: MessageContext): void {
    for (const l of this.listeners) if (subjectMatches(l.subject, subject)) l.deliver(subject, msg, ctx);
  }

  /** The stream a published subject lands in, if any (JetStream's no-responders otherwise). */
  streamFor(subject: string): MemoryStream | undefined {
    return [this.events, this.jobs].find((s) => s.holds(subject));
  }
}
