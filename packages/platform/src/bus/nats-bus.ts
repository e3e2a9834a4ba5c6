import { setTimeout as sleep } from 'node:timers/promises';
import pino, { type Logger } from 'pino';
import {
  connect,
  Events,
  headers,
  type Consumer,
  type JetStreamClient,
  type JetStreamManager,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription as NatsSubscription,
} from 'nats';
import { Streams, UnavailableError, type BusReply } from '@patchbay/contracts';
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
import { fromNatsError, jsErrorCode } from './nats-errors';
import { NatsSource } from './nats-source';
import { ensureConsumer, ensureStreams, pendingJobs, type StreamLimits } from './nats-streams';
import { DEFAULT_DRAIN_MS, PullWorker } from './pull-worker';
import { consumerName } from './subject-names';

export interface NatsBusOptions {
  /** `nats://host:port` (several servers: comma-separated). */
  url: string;
  /** Connection name shown by the server's monitoring. */
  name?: string;
  logger?: Logger;
  /** Limits to apply to the streams (see StreamLimits); none: streams are only created. */
  streams?: StreamLimits;
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
 */
export class NatsBus implements Bus {
  private readonly subs = new Set<Subscription>();
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly logger: Logger,
  ) {}

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
      throw new UnavailableError(`cannot connect to NATS at ${opts.url}`, [], { cause: err });
    }
    try {
      const jsm = await nc.jetstreamManager();
      await ensureStreams(jsm, opts.streams);
      const bus = new NatsBus(nc, jsm, nc.jetstream(), logger);
      bus.watchConnection();
      return bus;
    } catch (err) {
      await nc.close();
      throw fromNatsError(err, 'setting up JetStream streams');
    }
  }

  async request(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<BusReply> {
    let msg: Msg;
    try {
      msg = await this.nc.request(subject, encodePayload(payload), {
        timeout: opts.timeoutMs ?? 5000,
        headers: withRequestId(opts.requestId),
      });
    } catch (err) {
      throw fromNatsError(err, `request ${subject}`);
    }
    return decodeReply(msg.data, subject);
  }

  async serve(subject: string, queue: string, handler: RequestHandler): Promise<Subscription> {
    const inFlight = new InFlight();
    const answer = async (msg: Msg) => {
      const ctx = { subject: msg.subject, requestId: msg.headers?.get(REQUEST_ID_HEADER) || undefined };
      const reply = await answerRequest(handler, msg.data, ctx, this.logger);
      try {
        if (!msg.respond(encodePayload(reply)))
          this.logger.warn({ subject: msg.subject }, 'reply not sent: the request had no reply subject');
      } catch (err) {
        this.logger.warn({ err, subject: msg.subject }, 'reply not sent: connection closed');
      }
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
    try {
      await this.js.publish(subject, encodePayload(payload), {
        msgID: opts.msgId,
        headers: withRequestId(opts.requestId),
      });
    } catch (err) {
      throw fromNatsError(err, `publish ${subject}`);
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
          const ctx = { subject: msg.subject, requestId: msg.headers?.get(REQUEST_ID_HEADER) || undefined };
          void inFlight.track(
            Promise.resolve()
              .then(() => handler(decodePayload(msg.data), ctx))
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
      settle(d, (p) => handler(p, { subject: d.subject, requestId: d.requestId }), {
        maxDeliver: Infinity,
        kind: 'event',
        logger: this.logger,
      });
    return this.pull(spec, 1, run);
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
    return this.pull(spec, opts.concurrency ?? 1, run, opts.drainMs ?? DEFAULT_DRAIN_MS);
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
    drainMs?: number,
  ): Promise<Subscription> {
    const bind = () => ensureConsumer(this.jsm, this.js, spec);
    let first: Consumer;
    try {
      first = await bind();
    } catch (err) {
      // A JetStream API refusal is a configuration error (subject outside the stream, overlapping work queues).
      if (jsErrorCode(err) !== undefined)
        throw new Error(`cannot bind consumer ${spec.name} on stream ${spec.stream}: ${(err as Error).message}`, {
          cause: err,
        });
      throw fromNatsError(err, `binding consumer ${spec.name}`);
    }
    return this.keep(new PullWorker(new NatsSource(first, bind), concurrency, run, this.logger, { drainMs }));
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

  private watchConnection(): void {
    void (async () => {
      for await (const s of this.nc.status()) {
        if (s.type === Events.Disconnect) this.logger.warn({ server: s.data }, 'disconnected from NATS; reconnecting');
        else if (s.type === Events.Reconnect) this.logger.info({ server: s.data }, 'reconnected to NATS');
        else if (s.type === Events.Error) this.logger.error({ err: s.data }, 'NATS async error');
      }
    })().catch(() => undefined);
  }
}

function withRequestId(requestId: string | undefined): MsgHdrs | undefined {
  if (!requestId) return undefined;
  const h = headers();
  h.set(REQUEST_ID_HEADER, requestId);
  return h;
}

function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    /* already closed: nothing left to undo */
  }
}

/** Rejects if `p` takes longer than `ms`. */
async function withLimit<T>(p: Promise<T>, ms: number): Promise<T> {
  const ac = new AbortController();
  try {
    return await Promise.race([
      p,
      sleep(ms, undefined, { signal: ac.signal }).then(() => {
        throw new Error(`gave up after ${ms} ms`);
      }),
    ]);
  } finally {
    ac.abort();
  }
}
