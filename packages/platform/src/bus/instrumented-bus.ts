import type { Registry } from 'prom-client';
import { TimeoutError, UnavailableError, type BusReply } from '@patchbay/contracts';
import type {
  Bus,
  EventHandler,
  JobHandler,
  PublishOptions,
  RequestHandler,
  RequestOptions,
  Subscription,
  TraceCarrier,
  WorkOptions,
} from './port';
import { busMetrics, type BusMetrics } from './bus-metrics';
import { currentRequestId, withRequestId } from './request-context';
import { replyStatus, tracedReceive, tracedSend } from './bus-tracing';

type Kind = 'event' | 'job' | 'listen';

/**
 * A decorator over any Bus adapter that adds what an operator needs and changes no semantics:
 *  - Prometheus series per subject: request latency and outcome (status, timeout, unavailable) on
 *    the caller's side, answer time and status on the serving side, events/jobs sent and handled
 *    (see bus-metrics.ts);
 *  - the request ID: each handler runs with the ID of its message as the current one, and every
 *    request, event or job sent without an explicit `requestId` carries the current one, so the ID
 *    set by the gateway follows a call through every service it touches;
 *  - OpenTelemetry spans (bus-tracing.ts): a client or producer span around each message sent,
 *    whose W3C trace context the message carries, and a server or consumer span around each
 *    handler, child of the sender's (a message without one starts a new trace).
 * Subjects never carry IDs (contracts/subjects.ts), so the label sets stay small.
 */
export class InstrumentedBus implements Bus {
  private readonly m: BusMetrics;
  readonly listen?: Bus['listen'];
  readonly pending?: Bus['pending'];
  readonly onConnection?: Bus['onConnection'];

  constructor(
    private readonly inner: Bus,
    registry: Registry,
  ) {
    this.m = busMetrics(registry);
    const { listen, pending, onConnection } = inner;
    if (listen) this.listen = (subject, handler) => listen.call(inner, subject, this.handled('listen', handler));
    if (pending) this.pending = (subject, queue) => pending.call(inner, subject, queue);
    if (onConnection) this.onConnection = (listener) => onConnection.call(inner, listener);
  }

  async request(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<BusReply> {
    const end = this.m.requestSeconds.startTimer({ subject });
    let outcome = 'error';
    try {
      const reply = await tracedSend(
        'request',
        subject,
        (traceContext) =>
          this.inner.request(subject, payload, {
            ...opts,
            requestId: opts.requestId || currentRequestId(),
            traceContext: opts.traceContext ?? traceContext,
          }),
        (span, answer) => replyStatus(span, answer.status),
      );
      outcome = String(reply.status);
      return reply;
    } catch (err) {
      if (err instanceof TimeoutError) outcome = 'timeout';
      else if (err instanceof UnavailableError) outcome = 'unavailable';
      throw err;
    } finally {
      end();
      this.m.requests.inc({ subject, outcome });
    }
  }

  serve(subject: string, queue: string, handler: RequestHandler): Promise<Subscription> {
    return this.inner.serve(subject, queue, (payload, ctx) =>
      withRequestId(ctx.requestId, () =>
        tracedReceive(
          'request',
          ctx.subject,
          ctx.traceContext,
          async () => {
            const end = this.m.servedSeconds.startTimer({ subject: ctx.subject });
            let status = '500';
            try {
              const reply = await handler(payload, ctx);
              status = String(reply.status);
              return reply;
            } finally {
              end();
              this.m.served.inc({ subject: ctx.subject, status });
            }
          },
          (span, reply) => replyStatus(span, reply.status),
        ),
      ),
    );
  }

  publish(subject: string, payload: unknown, opts: PublishOptions = {}): Promise<void> {
    return this.sent('event', subject, opts, (sent) => this.inner.publish(subject, payload, sent));
  }

  enqueue(subject: string, payload: unknown, opts: PublishOptions = {}): Promise<void> {
    return this.sent('job', subject, opts, (sent) => this.inner.enqueue(subject, payload, sent));
  }

  subscribe(subject: string, durable: string, handler: EventHandler): Promise<Subscription> {
    return this.inner.subscribe(subject, durable, this.handled('event', handler));
  }

  work(subject: string, queue: string, handler: JobHandler, opts?: WorkOptions): Promise<Subscription> {
    return this.inner.work(subject, queue, this.handled('job', handler), opts);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async sent(
    kind: 'event' | 'job',
    subject: string,
    opts: PublishOptions,
    send: (opts: PublishOptions) => Promise<void>,
  ): Promise<void> {
    let result = 'failed';
    try {
      await tracedSend(kind, subject, (traceContext) =>
        send({
          ...opts,
          requestId: opts.requestId || currentRequestId(),
          traceContext: opts.traceContext ?? traceContext,
        }),
      );
      result = 'ok';
    } finally {
      this.m.published.inc({ subject, kind, result });
    }
  }

  /** Wraps an event, job or listen handler: current request ID, duration and result. */
  private handled<C extends { subject: string; requestId?: string; traceContext?: TraceCarrier }>(
    kind: Kind,
    handler: (payload: unknown, ctx: C) => Promise<void>,
  ) {
    return (payload: unknown, ctx: C): Promise<void> =>
      withRequestId(ctx.requestId, () =>
        tracedReceive(kind, ctx.subject, ctx.traceContext, async () => {
          const end = this.m.handledSeconds.startTimer({ subject: ctx.subject, kind });
          let result = 'failed';
          try {
            await handler(payload, ctx);
            result = 'ok';
          } finally {
            end();
            this.m.handled.inc({ subject: ctx.subject, kind, result });
          }
        }),
      );
  }
}
