import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { replyForError, TimeoutError, UnavailableError, type BusReply } from '@patchbay/contracts';
import type {
  Bus,
  EventHandler,
  JobHandler,
  MessageContext,
  PublishOptions,
  RequestHandler,
  RequestOptions,
  Subscription,
  WorkOptions,
} from './port';
import { answerRequest } from './answer-request';
import { BUS_RETRY_AFTER_S, NoRespondersError } from './bus-errors';
import { jobRunner, settle, type Delivery, type DeliverySource } from './delivery';
import { decodePayload, decodeReply, encodePayload } from './envelope-codec';
import { InFlight } from './in-flight';
import type { MemoryConsumer } from './memory-consumer';
import { MemoryHub, type MemoryHubOptions, type MemoryResponder, type WireMessage } from './memory-hub';
import { DEFAULT_CHUNKED_BYTES, DEFAULT_MAX_MESSAGE_BYTES, LargeMessages, OFFER_TTL_MS } from './large-messages';
import type { StoredMessage } from './message-log';
import { DEFAULT_DRAIN_MS, PullWorker } from './pull-worker';
import { consumerName } from './subject-names';

export { MemoryHub };

const EVENT_ACK_WAIT_MS = 30_000;

/**
 * The in-process bus (all-in-one mode and tests). One handle is one "connection" to a MemoryHub;
 * handles sharing a hub behave like processes sharing a nats-server, with NatsBus's semantics:
 * JSON payloads, queue-group load sharing, timeouts and no-responders, durable events with
 * history, work queues with ack wait, nak backoff and max deliveries. With a hub `maxPayload`
 * (BUS_MAX_PAYLOAD, on in the test suites), messages larger than NATS's max_payload take the same
 * chunked and stored paths as on NATS, through the same code (large-messages.ts).
 *
 * ```ts
 * const hub = MemoryBus.hub();
 * const a = new MemoryBus(hub, { logger });
 * const b = new MemoryBus(hub); // shares a's queue groups, events and jobs
 * ```
 */
export class MemoryBus implements Bus {
  private readonly logger: Logger;
  private readonly subs = new Set<Subscription>();
  private readonly large: LargeMessages;
  private closed = false;

  /** A fresh medium; pass it to every handle that should talk to each other. */
  static hub(opts: MemoryHubOptions = {}): MemoryHub {
    return new MemoryHub(opts);
  }

  constructor(
    readonly hub: MemoryHub = new MemoryHub(),
    opts: { logger?: Logger; maxMessageBytes?: number; chunkedBytes?: number } = {},
  ) {
    this.logger = (opts.logger ?? pino({ enabled: false })).child({ mod: 'memory-bus' });
    const maxMessageBytes = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const chunkedBytes = opts.chunkedBytes ?? DEFAULT_CHUNKED_BYTES;
    this.large = new LargeMessages(hub.wire, () => ({ maxPayload: hub.maxPayload, maxMessageBytes, chunkedBytes }));
  }

  async request(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<BusReply> {
    this.assertOpen();
    const framed = this.large.frame(encodePayload(payload), `the request to ${subject}`);
    const msg: WireMessage = { data: framed.data, chunked: framed.chunked };
    const ctx: MessageContext = { subject, requestId: opts.requestId, traceContext: opts.traceContext };
    const answers = this.hub
      .route(subject)
      .map((r) => r.answer(msg, ctx))
      .filter((a) => a !== null);
    if (answers.length === 0) {
      framed.release();
      throw new NoRespondersError({ message: `no service answers ${subject}`, retryAfterSeconds: BUS_RETRY_AFTER_S });
    }
    const timeoutMs = opts.timeoutMs ?? 5000;
    return new Promise<BusReply>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        framed.release();
        reject(new TimeoutError({ message: `${subject} did not answer within ${timeoutMs} ms` }));
      }, timeoutMs);
      for (const a of answers) {
        void a.then(async (answer) => {
          // Late, or a second queue group's: nobody reads it, so its sender lets it go now.
          if (settled) return this.large.discard(answer.chunked);
          settled = true;
          clearTimeout(timer);
          framed.release();
          try {
            const what = `the reply of ${subject}`;
            resolve(decodeReply(await this.large.unframe(answer.data, answer.chunked, what, timeoutMs), subject));
          } catch (err) {
            reject(err);
          }
        });
      }
    });
  }

  async serve(subject: string, queue: string, handler: RequestHandler): Promise<Subscription> {
    this.assertOpen();
    const inFlight = new InFlight();
    let serving = true;
    const responder: MemoryResponder = {
      subject,
      queue,
      // Deferred a tick, as a network hop would be; the handler gets its own decoded copy.
      answer: (msg, ctx) =>
        serving
          ? inFlight.track(new Promise<void>((r) => setImmediate(r)).then(() => this.answer(handler, msg, { ...ctx })))
          : null,
    };
    this.hub.addResponder(responder);
    return this.keep({
      stop: async () => {
        serving = false;
        this.hub.removeResponder(responder);
        await inFlight.idle();
      },
    });
  }

  async publish(subject: string, payload: unknown, opts: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const stream = this.hub.streamFor(subject);
    if (!stream) throw new UnavailableError({ message: `no stream stores ${subject}` });
    const data = encodePayload(payload);
    let msg: StoredMessage = { subject, data, requestId: opts.requestId, traceContext: opts.traceContext };
    if (!this.large.fits(data)) {
      this.large.checkSize(data, `the message on ${subject}`);
      const name = randomUUID();
      const bodies = this.hub.bodies;
      await bodies.put(name, data);
      msg = {
        ...msg,
        data: new Uint8Array(0),
        load: () => bodies.get(name),
        release: () => void bodies.delete(name),
      };
    }
    this.hub.carry(msg.data, `the message on ${subject}`);
    if (stream.append(msg, opts))
      this.hub.notify(subject, msg, { subject, requestId: opts.requestId, traceContext: opts.traceContext });
  }

  async listen(subject: string, handler: EventHandler): Promise<Subscription> {
    this.assertOpen();
    const inFlight = new InFlight();
    const listener = {
      subject,
      deliver: (s: string, msg: StoredMessage, ctx: MessageContext) => {
        void inFlight.track(
          new Promise<void>((r) => setImmediate(r))
            .then(async () => handler(decodePayload(msg.load ? await msg.load() : msg.data), { ...ctx, subject: s }))
            .catch((err: unknown) => this.logger.warn({ err, subject: s }, 'listener failed')),
        );
      },
    };
    this.hub.listeners.add(listener);
    return this.keep({
      stop: async () => {
        this.hub.listeners.delete(listener);
        await inFlight.idle();
      },
    });
  }

  async subscribe(subject: string, durable: string, handler: EventHandler): Promise<Subscription> {
    this.assertOpen();
    const consumer = this.hub.events.consumer(consumerName(durable, subject), subject, EVENT_ACK_WAIT_MS);
    const run = (d: Delivery) =>
      settle(d, (p) => handler(p, { subject: d.subject, requestId: d.requestId, traceContext: d.traceContext }), {
        maxDeliver: Infinity,
        kind: 'event',
        logger: this.logger,
      });
    return this.keep(new PullWorker(new MemorySource(consumer), 1, run, this.logger));
  }

  async enqueue(subject: string, payload: unknown, opts: PublishOptions = {}): Promise<void> {
    return this.publish(subject, payload, opts);
  }

  async work(subject: string, queue: string, handler: JobHandler, opts: WorkOptions = {}): Promise<Subscription> {
    this.assertOpen();
    const consumer = this.hub.jobs.consumer(consumerName(queue, subject), subject, opts.ackWaitMs ?? 30_000);
    const run = jobRunner(handler, { maxDeliver: opts.maxDeliver ?? 5, logger: this.logger });
    return this.keep(
      new PullWorker(new MemorySource(consumer), opts.concurrency ?? 1, run, this.logger, {
        drainMs: opts.drainMs ?? DEFAULT_DRAIN_MS,
      }),
    );
  }

  async pending(subject: string, _queue: string): Promise<number> {
    return this.hub.jobs.count(subject);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subs].map((s) => s.stop()));
  }

  /**
   * Serves one request: its chunks fetched if it came in chunks, the reply framed; never rejects.
   * `ctx.replied` settles once the reply has left (its chunks taken, or the offer closed).
   */
  private async answer(handler: RequestHandler, msg: WireMessage, received: MessageContext): Promise<WireMessage> {
    let replied!: () => void;
    const ctx: MessageContext = { ...received, replied: new Promise<void>((r) => (replied = r)) };
    let reply: BusReply;
    try {
      const data = await this.large.unframe(msg.data, msg.chunked, `the request on ${ctx.subject}`, OFFER_TTL_MS);
      reply = await answerRequest(handler, data, ctx, this.logger);
    } catch (err) {
      this.logger.error({ err, subject: ctx.subject, requestId: ctx.requestId }, 'request could not be read');
      reply = replyForError(err);
    }
    try {
      const framed = this.large.frame(encodePayload(reply), `the reply on ${ctx.subject}`);
      this.hub.carry(framed.data, `the reply on ${ctx.subject}`);
      void framed.sent.then(replied);
      return { data: framed.data, chunked: framed.chunked };
    } catch (err) {
      const level = err instanceof UnavailableError ? 'warn' : 'error';
      this.logger[level]({ err, subject: ctx.subject }, 'reply cannot be sent; answering with the error instead');
      replied();
      return { data: encodePayload(replyForError(err)) };
    }
  }

  private keep(sub: Subscription): Subscription {
    const kept: Subscription = {
      stop: async () => {
        this.subs.delete(kept);
        await sub.stop();
      },
    };
    this.subs.add(kept);
    return kept;
  }

  private assertOpen(): void {
    if (this.closed) throw new UnavailableError({ message: 'bus is closed' });
  }
}

/** Pulls from a MemoryConsumer; a pull waits as long as it takes (no expiry in-process). */
class MemorySource implements DeliverySource {
  private readonly pulls = new Set<() => void>();
  private closed = false;

  constructor(private readonly consumer: MemoryConsumer) {}

  next(): Promise<Delivery | null> {
    if (this.closed) return Promise.resolve(null);
    return new Promise<Delivery | null>((resolve) => {
      let cancel = () => {};
      const withdraw = () => {
        cancel();
        resolve(null);
      };
      this.pulls.add(withdraw);
      cancel = this.consumer.pull((d) => {
        this.pulls.delete(withdraw);
        resolve(d);
      });
    });
  }

  close(): void {
    this.closed = true;
    for (const withdraw of this.pulls) withdraw();
    this.pulls.clear();
  }
}
