import pino, { type Logger } from 'pino';
import {
  connect,
  Events,
  type Consumer,
  type JetStreamClient,
  type JetStreamManager,
  type Msg,
  type NatsConnection,
  type Subscription as NatsSubscription,
} from 'nats';
import { ApiError, replyForError, Streams, TimeoutError, UnavailableError, type BusReply } from '@patchbay/contracts';
import type {
  Bus,
  EventHandler,
  JobHandler,
  PublishOptions,
  RequestHandler,
  RequestOptions,
  Subscription,
  WorkOptions,
} from './port';
import { answerRequest } from './answer-request';
import { jobRunner, settle, type Delivery } from './delivery';
import { decodePayload, decodeReply, encodePayload, REQUEST_ID_HEADER } from './envelope-codec';
import { InFlight } from './in-flight';
import {
  CHUNKED_HEADER,
  DEFAULT_CHUNKED_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  LargeMessages,
  OFFER_TTL_MS,
  STORED_HEADER,
  storedRef,
  type BusLimits,
} from './large-messages';
import { bodyName, busHeaders, headerOf, quietly, traceOf, withLimit } from './nats-helpers';
import { respond } from './nats-respond';
import { NatsBodyStore, natsWire } from './nats-large';
import { fromNatsError, jsErrorCode } from './nats-errors';
import { NatsSource, type StoredBodies } from './nats-source';
import { HeldRequests } from './nats-held-requests';
import { RequestWatch, WATCH_HEADER } from './nats-request-watch';
import { ensureConsumer, ensureStreams, pendingJobs, type StreamLimits } from './nats-streams';
import { DEFAULT_DRAIN_MS, PullWorker } from './pull-worker';
import { consumerName } from './subject-names';
import { errorMessage } from '../basics/error-fields';

export interface NatsBusOptions {
  /** `nats://host:port` (several servers: comma-separated). */
  url: string;
  /** Connection name shown by the server's monitoring. */
  name?: string;
  logger?: Logger;
  /** Limits to apply to the streams (see StreamLimits); none: streams are only created. */
  streams?: StreamLimits;
  /**
   * Largest single message to send, below the server's own max_payload (BUS_MAX_PAYLOAD); unset:
   * the server's, read from its INFO at every (re)connect. Larger messages go in chunks.
   */
  maxPayload?: number;
  /** Largest message carried at all, in chunks (BUS_MAX_MESSAGE_BYTES; default 256 MiB). */
  maxMessageBytes?: number;
  /** Bytes of chunked messages held at once, each way (BUS_CHUNKED_BYTES; default 128 MiB). */
  chunkedBytes?: number;
}

const EVENT_ACK_WAIT_MS = 30_000;
/** How long close() lets a drain run before cutting the connection (the server may be gone). */
const DRAIN_LIMIT_MS = 5000;

/**
 * The bus over NATS. Requests use core request/reply with queue groups (no-responders gives a
 * prompt 503). Events and jobs live in the JetStream streams of `Streams` (created or updated at
 * connect) and are read through durable pull consumers, one message per free slot, with explicit
 * acks. The connection reconnects forever, and pulls resume after a server restart: a service
 * outlives a nats-server restart without being restarted itself.
 *
 * Messages of any size: a request or reply larger than the server's max_payload is offered in
 * chunks that its receiver pulls and reassembles; an event or job that large keeps its body in the
 * JetStream object store and the message names it (large-messages.ts; decisions §37).
 *
 * A request known lost fails at once with a 503 instead of waiting out its timeout: every request
 * in flight when the connection drops, and one whose holder died while NATS stayed up
 * (nats-request-watch.ts, nats-held-requests.ts; decisions §47).
 */
export class NatsBus implements Bus {
  private readonly subs = new Set<Subscription>();
  private closed = false;
  private up = true;
  private readonly watchers = new Set<(up: boolean) => void>();
  private readonly large: LargeMessages;
  private readonly bodies: NatsBodyStore;
  private readonly stored: StoredBodies;
  private readonly watch: RequestWatch;
  private readonly held: HeldRequests;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly logger: Logger,
    opts: NatsBusOptions,
  ) {
    const limits = (): BusLimits => ({
      // nats.js checks every publish against the INFO of the server it is connected to now.
      maxPayload: Math.min(nc.info?.max_payload ?? 1024 * 1024, opts.maxPayload ?? Infinity),
      maxMessageBytes: opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      chunkedBytes: opts.chunkedBytes ?? DEFAULT_CHUNKED_BYTES,
    });
    this.watch = new RequestWatch(nc, logger);
    this.held = new HeldRequests(nc);
    this.large = new LargeMessages(natsWire(nc), limits);
    this.bodies = new NatsBodyStore(js, { ttlS: opts.streams?.eventsMaxAgeS, replicas: opts.streams?.replicas });
    this.stored = {
      load: (ref, what) =>
        this.bodies.get(this.large.storedName(ref, what)).catch((err: unknown) => {
          throw err instanceof ApiError ? err : fromNatsError(err, `reading ${what}`);
        }),
      drop: (ref) => void this.bodies.delete(ref.split(' ')[0]).catch(() => undefined),
    };
  }

  /** Connects, checks JetStream and ensures the streams. Rejects with UnavailableError if NATS is not there. */
  static async connect(opts: NatsBusOptions): Promise<NatsBus> {
    const logger = (opts.logger ?? pino({ enabled: false })).child({ mod: 'nats-bus' });
    let nc: NatsConnection;
    try {
      nc = await connect({
        servers: opts.url.split(','),
        name: opts.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      });
    } catch (err) {
      throw new UnavailableError({ message: `cannot connect to NATS at ${opts.url}`, cause: err });
    }
    try {
      const jsm = await nc.jetstreamManager();
      await ensureStreams(jsm, opts.streams);
      const bus = new NatsBus(nc, jsm, nc.jetstream(), logger, opts);
      bus.followStatus();
      return bus;
    } catch (err) {
      await nc.close();
      throw fromNatsError(err, 'setting up JetStream streams');
    }
  }

  async request(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<BusReply> {
    const timeout = opts.timeoutMs ?? 5000;
    const framed = this.large.frame(encodePayload(payload), `the request to ${subject}`);
    const { requestId, traceContext } = opts;
    try {
      // Fails at once when the request is known lost (the connection, or the process holding it).
      return await this.watch.track(subject, async (watch) => {
        let msg: Msg;
        try {
          msg = await this.nc.request(subject, framed.data, {
            timeout,
            headers: busHeaders({ requestId, chunked: framed.chunked, traceContext, watch }),
          });
        } catch (err) {
          throw fromNatsError(err, `request ${subject}`);
        } finally {
          // Answered (the server read every chunk before answering) or failed: the offer is done.
          framed.release();
        }
        const what = `the reply of ${subject}`;
        return decodeReply(await this.large.unframe(msg.data, headerOf(msg, CHUNKED_HEADER), what, timeout), subject);
      });
    } finally {
      framed.release();
    }
  }

  async serve(subject: string, queue: string, handler: RequestHandler): Promise<Subscription> {
    const inFlight = new InFlight();
    const answer = async (msg: Msg) => {
      let replied!: () => void;
      const ctx = {
        subject: msg.subject,
        requestId: headerOf(msg, REQUEST_ID_HEADER),
        traceContext: traceOf(msg),
        replied: new Promise<void>((r) => (replied = r)),
      };
      // Held until answered: a requester still waiting after a second is told who holds it.
      const release = this.held.hold(headerOf(msg, WATCH_HEADER));
      let reply: BusReply;
      try {
        const what = `the request on ${msg.subject}`;
        const data = await this.large.unframe(msg.data, headerOf(msg, CHUNKED_HEADER), what, OFFER_TTL_MS);
        reply = await answerRequest(handler, data, ctx, this.logger);
      } catch (err) {
        this.logger.error({ err, subject: msg.subject, requestId: ctx.requestId }, 'request could not be read');
        reply = replyForError(err);
      } finally {
        release();
      }
      void respond(msg, reply, this.large, this.logger).then(replied);
    };
    let sub: NatsSubscription;
    try {
      sub = this.nc.subscribe(subject, {
        queue,
        callback: (err, msg) => {
          if (err) this.logger.error({ err, subject }, 'serve subscription failed');
          else void inFlight.track(answer(msg));
        },
      });
      // The server must know of the subscription before we say we are serving.
      await this.nc.flush();
    } catch (err) {
      quietly(() => sub?.unsubscribe());
      throw fromNatsError(err, `serve ${subject}`);
    }
    return this.keep({
      stop: async () => {
        // Drain: the server confirms the unsubscribe, so requests routed to us meanwhile are still answered.
        await withLimit(
          Promise.resolve().then(() => sub.drain()),
          DRAIN_LIMIT_MS,
        ).catch(() => quietly(() => sub.unsubscribe()));
        await inFlight.idle();
      },
    });
  }

  async publish(subject: string, payload: unknown, opts: PublishOptions = {}): Promise<void> {
    let data = encodePayload(payload);
    let stored: string | undefined;
    if (!this.large.fits(data)) {
      this.large.checkSize(data, `the message on ${subject}`);
      // Named after the message ID when there is one: a retried publish rewrites the same body.
      const name = bodyName(subject, opts.msgId);
      try {
        await this.bodies.put(name, data);
      } catch (err) {
        throw fromNatsError(err, `storing the body of ${subject}`);
      }
      stored = storedRef(name, data.length);
      data = new Uint8Array(0);
    }
    try {
      await this.js.publish(subject, data, {
        msgID: opts.msgId,
        headers: busHeaders({ requestId: opts.requestId, stored, traceContext: opts.traceContext }),
      });
    } catch (err) {
      // Refused outright (no stream, an API error): the body has nothing pointing to it. After a
      // timeout the message may have been stored all the same, so its body stays.
      const failed = fromNatsError(err, `publish ${subject}`);
      if (stored && !(failed instanceof TimeoutError)) this.stored.drop(stored);
      throw failed;
    }
  }

  /** Core NATS subscription: JetStream-published events reach plain subscribers of their subject too. */
  async listen(subject: string, handler: EventHandler): Promise<Subscription> {
    const inFlight = new InFlight();
    let sub: NatsSubscription;
    try {
      sub = this.nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) {
            this.logger.error({ err, subject }, 'listen subscription failed');
            return;
          }
          const ctx = { subject: msg.subject, requestId: headerOf(msg, REQUEST_ID_HEADER), traceContext: traceOf(msg) };
          const stored = headerOf(msg, STORED_HEADER);
          void inFlight.track(
            (stored ? this.stored.load(stored, `the message on ${msg.subject}`) : Promise.resolve(msg.data))
              .then((data) => handler(decodePayload(data), ctx))
              .catch((e: unknown) => this.logger.warn({ err: e, subject: msg.subject }, 'listener failed')),
          );
        },
      });
      await this.nc.flush();
    } catch (err) {
      throw fromNatsError(err, `listen ${subject}`);
    }
    return this.keep({
      stop: async () => {
        quietly(() => sub.unsubscribe());
        await inFlight.idle();
      },
    });
  }

  async subscribe(subject: string, durable: string, handler: EventHandler): Promise<Subscription> {
    const spec = {
      stream: Streams.events.name,
      name: consumerName(durable, subject),
      filter: subject,
      ackWaitMs: EVENT_ACK_WAIT_MS,
    };
    const run = (d: Delivery) =>
      settle(d, (p) => handler(p, { subject: d.subject, requestId: d.requestId, traceContext: d.traceContext }), {
        maxDeliver: Infinity,
        kind: 'event',
        logger: this.logger,
      });
    return this.pull(spec, 1, run, undefined, false);
  }

  async enqueue(subject: string, payload: unknown, opts: PublishOptions = {}): Promise<void> {
    return this.publish(subject, payload, opts);
  }

  async work(subject: string, queue: string, handler: JobHandler, opts: WorkOptions = {}): Promise<Subscription> {
    const spec = {
      stream: Streams.jobs.name,
      name: consumerName(queue, subject),
      filter: subject,
      ackWaitMs: opts.ackWaitMs ?? 30_000,
    };
    const run = jobRunner(handler, { maxDeliver: opts.maxDeliver ?? 5, logger: this.logger });
    // A job's body goes once the job is settled: work-queue retention, nothing will read it again.
    return this.pull(spec, opts.concurrency ?? 1, run, opts.drainMs ?? DEFAULT_DRAIN_MS, true);
  }

  async pending(subject: string, queue: string): Promise<number> {
    try {
      return await pendingJobs(this.jsm, consumerName(queue, subject), subject);
    } catch (err) {
      throw fromNatsError(err, `pending ${subject}`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subs].map((s) => s.stop()));
    this.watch.close();
    this.held.close();
    await withLimit(
      Promise.resolve().then(() => this.nc.drain()),
      DRAIN_LIMIT_MS,
    ).catch(() => this.nc.close());
  }

  /** Binds the consumer now (so a bad subject fails here, not later), then pulls in the background. */
  private async pull(
    spec: Parameters<typeof ensureConsumer>[2],
    concurrency: number,
    run: (d: Delivery, signal: AbortSignal) => Promise<void>,
    drainMs: number | undefined,
    dropBodies: boolean,
  ): Promise<Subscription> {
    const bind = () => ensureConsumer(this.jsm, this.js, spec);
    let first: Consumer;
    try {
      first = await bind();
    } catch (err) {
      // A JetStream API refusal is a configuration error (subject outside the stream, overlapping work queues).
      if (jsErrorCode(err) !== undefined)
        throw new Error(`cannot bind consumer ${spec.name} on stream ${spec.stream}: ${errorMessage(err)}`, {
          cause: err,
        });
      throw fromNatsError(err, `binding consumer ${spec.name}`);
    }
    return this.keep(
      new PullWorker(new NatsSource(first, bind, this.stored, dropBodies), concurrency, run, this.logger, { drainMs }),
    );
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

  /** Calls `listener` with the connection's state now and at every change; returns the unsubscribe. */
  onConnection(listener: (up: boolean) => void): () => void {
    this.watchers.add(listener);
    listener(this.up);
    return () => this.watchers.delete(listener);
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    for (const w of this.watchers) w(up);
  }

  private followStatus(): void {
    void (async () => {
      for await (const s of this.nc.status()) {
        if (s.type === Events.Disconnect) {
          this.logger.warn({ server: s.data }, 'disconnected from NATS; reconnecting');
          this.setUp(false);
          this.watch.connectionLost();
        } else if (s.type === Events.Reconnect) {
          this.logger.info({ server: s.data }, 'reconnected to NATS');
          this.setUp(true);
        } else if (s.type === Events.Error) this.logger.error({ err: s.data }, 'NATS async error');
      }
    })().catch(() => undefined);
  }
}
