import type { Consumer, ConsumerMessages, JsMsg, Subscription as NatsSubscription } from 'nats';
import type { Delivery, DeliverySource } from './delivery';
import { REQUEST_ID_HEADER } from './envelope-codec';
import { STORED_HEADER } from './large-messages';
import { traceOf } from './nats-helpers';

/** How a source reaches the bodies of large events and jobs (kept in the object store). */
export interface StoredBodies {
  /** The body a STORED_HEADER value names (checked against the size bound first). */
  load(ref: string, what: string): Promise<Uint8Array>;
  /** Deletes it (a job that has been settled). */
  drop(ref: string): void;
}

/**
 * How long one pull request waits on the server. It bounds how long a slot can sit on a request
 * lost to a server restart (the client also re-pulls on reconnect and on missed heartbeats).
 */
const PULL_EXPIRES_MS = 5000;

/**
 * Pulls one message at a time from a durable JetStream consumer: `fetch({max_messages: 1})`
 * with the client's idle heartbeats, asked only by a free slot (see PullWorker). Compared with
 * `consume()`, nothing is prefetched, so a busy subscriber holds no messages it is not running.
 * The consumer handle is re-resolved after a failure, so a consumer recreated behind our back
 * (or a server restart) is picked up.
 */
export class NatsSource implements DeliverySource {
  private consumer: Promise<Consumer> | undefined;
  private readonly open = new Set<ConsumerMessages>();
  private closed = false;

  constructor(
    first: Consumer,
    private readonly rebind: () => Promise<Consumer>,
    private readonly bodies: StoredBodies,
    /** Whether a settled message's body is deleted (a work queue: nobody reads it again). */
    private readonly dropBodies: boolean,
  ) {
    this.consumer = Promise.resolve(first);
  }

  async next(): Promise<Delivery | null> {
    if (this.closed) return null;
    this.consumer ??= this.rebind();
    let batch: ConsumerMessages;
    try {
      batch = await (await this.consumer).fetch({ max_messages: 1, expires: PULL_EXPIRES_MS });
    } catch (err) {
      this.consumer = undefined;
      throw err;
    }
    this.open.add(batch);
    if (this.closed) drainFetch(batch);
    let got: JsMsg | undefined;
    try {
      // Iterate to the end (not `break`), so the fetch tidies up its inbox and timers itself.
      for await (const m of batch) {
        if (got || this.closed) quietly(() => m.nak());
        else got = m;
      }
    } catch (err) {
      this.consumer = undefined;
      if (!got) throw err;
    } finally {
      this.open.delete(batch);
    }
    return got ? toDelivery(got, this.bodies, this.dropBodies) : null;
  }

  close(): void {
    this.closed = true;
    for (const batch of this.open) drainFetch(batch);
  }
}

/** How long a closing fetch may wait for the server to confirm its unsubscribe (it may be down). */
const DRAIN_LIMIT_MS = 2000;

/**
 * Ends a fetch whose pull request may still be waiting on the server. nats.js's `close()`
 * unsubscribes locally at once, so a message the server sent before it learnt of the unsubscribe
 * would be dropped and only come back after its ack wait (30 s for events). Draining the inbox
 * instead lets such a message arrive, to be handed back (nak) at once; the fetch iterator ends
 * when the drain completes. `sub` is internal to nats.js 2.x, hence the fallback to `close()`.
 */
function drainFetch(batch: ConsumerMessages): void {
  // why: `sub` is a private field of nats.js 2.x's fetch iterator; its absence is handled (close()).
  const sub = (batch as unknown as { sub?: NatsSubscription }).sub;
  const close = () => {
    void batch.close().catch(() => undefined);
  };
  if (!sub || sub.isClosed()) return close();
  const timer = setTimeout(close, DRAIN_LIMIT_MS);
  Promise.resolve()
    .then(() => sub.drain())
    .catch(() => undefined)
    .finally(() => {
      clearTimeout(timer);
      close();
    });
}

function toDelivery(m: JsMsg, bodies: StoredBodies, dropBodies: boolean): Delivery {
  const stored = m.headers?.get(STORED_HEADER) || undefined;
  const done = () => {
    if (stored && dropBodies) bodies.drop(stored);
  };
  return {
    subject: m.subject,
    data: m.data,
    ...(stored ? { load: () => bodies.load(stored, `the message on ${m.subject}`) } : {}),
    requestId: m.headers?.get(REQUEST_ID_HEADER) || undefined,
    traceContext: traceOf(m),
    deliveryCount: m.info.deliveryCount,
    // At-least-once: a settle that cannot be sent (connection gone) only means the message comes
    // back after its ack wait, so these never throw.
    ack: () =>
      m.ackAck().then(
        (acked) => {
          if (acked) done();
        },
        () => undefined,
      ),
    nak: (delayMs) => quietly(() => m.nak(delayMs)),
    term: () => {
      quietly(() => m.term());
      done();
    },
    working: () => quietly(() => m.working()),
  };
}

function quietly(send: () => void): void {
  try {
    send();
  } catch {
    /* see toDelivery */
  }
}
