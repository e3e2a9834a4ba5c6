import { randomUUID } from 'node:crypto';
import { BusPayloadError, NoRespondersError } from './bus-errors';
import type { ChunkWire } from './chunk-wire';
import type { BodyStore } from './large-messages';

/**
 * Chunked transfer inside one process: private subjects are entries in a map, and every message,
 * the chunks included, passes the hub's max_payload check (`carry`) as it would a nats-server's.
 */
export class MemoryWire implements ChunkWire {
  private readonly inboxes = new Map<string, (request: Uint8Array) => Uint8Array>();

  constructor(private readonly carry: (data: Uint8Array, what: string) => void) {}

  offer(answer: (request: Uint8Array) => Uint8Array): { subject: string; close(): void } {
    const subject = `_INBOX.${randomUUID()}`;
    this.inboxes.set(subject, answer);
    return { subject, close: () => this.inboxes.delete(subject) };
  }

  async ask(subject: string, data: Uint8Array, _timeoutMs: number): Promise<Uint8Array> {
    this.carry(data, `a chunk request on ${subject}`);
    // A hop, as over a network: the asker never gets its answer in the same tick.
    await new Promise<void>((r) => setImmediate(r));
    const answer = this.inboxes.get(subject);
    if (!answer) throw new NoRespondersError({ message: `no responders on ${subject}` });
    const out = answer(data);
    this.carry(out, `a chunk on ${subject}`);
    return out.slice();
  }

  tell(subject: string, data: Uint8Array): void {
    setImmediate(() => this.inboxes.get(subject)?.(data));
  }
}

/** The in-process twin of the object store that keeps the bodies of large events and jobs. */
export class MemoryBodyStore implements BodyStore {
  private readonly bodies = new Map<string, Uint8Array>();

  async put(name: string, data: Uint8Array): Promise<void> {
    this.bodies.set(name, data.slice());
  }

  async get(name: string): Promise<Uint8Array> {
    const data = this.bodies.get(name);
    if (!data) throw new BusPayloadError({ message: `the body ${name} of a large message is gone (deleted)` });
    return data.slice();
  }

  async delete(name: string): Promise<void> {
    this.bodies.delete(name);
  }

  /** Bodies kept now (tests check that settled jobs leave none behind). */
  get size(): number {
    return this.bodies.size;
  }
}
