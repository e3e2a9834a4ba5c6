import {
  createInbox,
  nanos,
  StorageType,
  type JetStreamClient,
  type NatsConnection,
  type ObjectStore,
  type ObjectStoreOptions,
} from 'nats';
import { BusPayloadError } from './bus-errors';
import type { ChunkWire } from './chunk-wire';
import type { BodyStore } from './large-messages';
import { fromNatsError } from './nats-errors';

/** The object store bucket holding the bodies of events and jobs larger than one message. */
export const BODY_BUCKET = 'patchbay-bodies';

/** Chunked transfer over core NATS: a private inbox subscription answers chunk requests. */
export function natsWire(nc: NatsConnection): ChunkWire {
  return {
    offer(answer) {
      const subject = createInbox();
      const sub = nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          try {
            msg.respond(answer(msg.data));
          } catch {
            /* the connection closed: the receiver's ask fails, and says so */
          }
        },
      });
      return {
        subject,
        close: () => {
          try {
            sub.unsubscribe();
          } catch {
            /* already closed */
          }
        },
      };
    },
    async ask(subject, data, timeoutMs) {
      try {
        return (await nc.request(subject, data, { timeout: timeoutMs })).data;
      } catch (err) {
        throw fromNatsError(err, `a chunk request on ${subject}`);
      }
    },
    tell(subject, data) {
      try {
        nc.publish(subject, data);
      } catch {
        /* the connection closed: the offer's own timers let its bytes go */
      }
    },
  };
}

/**
 * The bodies of large events and jobs, in the JetStream object store (a stream of 128 KiB chunks
 * the server keeps like any other): the event or job message carries only the name. The bucket is
 * made on first use, its objects kept as long as events are (`ttlS`: NATS_EVENTS_MAX_AGE). A job's
 * body is deleted once the job is acknowledged or dropped; an event's stays for every durable
 * consumer, including one that subscribes later.
 */
export class NatsBodyStore implements BodyStore {
  private os: Promise<ObjectStore> | undefined;

  constructor(
    private readonly js: JetStreamClient,
    private readonly opts: { ttlS?: number; replicas?: number } = {},
  ) {}

  async put(name: string, data: Uint8Array): Promise<void> {
    await (await this.store()).putBlob({ name }, data);
  }

  async get(name: string): Promise<Uint8Array> {
    const data = await (await this.store()).getBlob(name);
    if (!data)
      throw new BusPayloadError({ message: `the body ${name} of a large message is gone (expired or deleted)` });
    return data;
  }

  async delete(name: string): Promise<void> {
    await (await this.store()).delete(name);
  }

  private store(): Promise<ObjectStore> {
    const opts: Partial<ObjectStoreOptions> = {
      storage: StorageType.File,
      ...(this.opts.ttlS ? { ttl: nanos(this.opts.ttlS * 1000) } : {}),
      ...(this.opts.replicas ? { replicas: this.opts.replicas } : {}),
    };
    this.os ??= this.js.views.os(BODY_BUCKET, opts).catch((err: unknown) => {
      this.os = undefined;
      throw err;
    });
    return this.os;
  }
}
