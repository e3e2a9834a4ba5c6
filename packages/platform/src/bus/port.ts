import type { BusReply } from '@patchbay/contracts';

/**
 * W3C trace context of a message (`traceparent`, and `tracestate` when there is one): NATS headers
 * of the same names on the wire, this object as it is through the in-process bus. The adapters only
 * carry it; InstrumentedBus writes it on every message sent and starts each handler's span from it.
 */
export type TraceCarrier = Record<string, string>;

/** Metadata that travels with every bus message (NATS headers on the wire). */
export interface MessageContext {
  /** Subject the message arrived on. */
  subject: string;
  /** Request ID carried from the gateway through every hop, for logs. */
  requestId?: string;
  /** The trace context the sender was in (none: the handler starts a new trace). */
  traceContext?: TraceCarrier;
  /**
   * Requests only (both adapters set it): settles once the handler's reply has left this process —
   * sent in one message, or, for a reply in chunks, once its receiver has taken them or given up
   * (or the offer ran out). What a handler holds for its reply, a slot of a limit say, is held
   * until then.
   */
  replied?: Promise<void>;
}

/** A job delivered from a work queue. */
export interface JobContext extends MessageContext {
  /** 1 on first delivery; higher after a nak or an expired ack wait. */
  deliveryCount: number;
  /** Extends the ack deadline while a long job is still making progress. */
  working(): void;
  /**
   * Aborted when the subscription is being stopped and this job has not finished within the
   * drain deadline (`WorkOptions.drainMs`). A long job should pass it on (child processes, streams)
   * and reject promptly: the job is then handed back for immediate redelivery to another worker
   * rather than waiting out its ack wait after the process is gone. A job that still resolves is
   * acknowledged as usual.
   */
  signal: AbortSignal;
}

export interface RequestOptions {
  /** Milliseconds before the request fails with a TimeoutError (default 5000). */
  timeoutMs?: number;
  requestId?: string;
  traceContext?: TraceCarrier;
  /**
   * Whom the request is made for (the gateway: the partner's SID). Not sent: the circuit breaker
   * counts a request that goes unanswered against its caller before the whole service.
   */
  caller?: string;
}

export interface PublishOptions {
  requestId?: string;
  traceContext?: TraceCarrier;
  /** De-duplication ID: a second publish with the same ID inside the window is dropped. */
  msgId?: string;
}

export interface WorkOptions {
  /** Jobs processed at once by this subscriber (default 1). */
  concurrency?: number;
  /** Milliseconds a job may run unacknowledged before it is redelivered (default 30000). */
  ackWaitMs?: number;
  /** Deliveries before a job is given up and dropped (default 5). */
  maxDeliver?: number;
  /**
   * Milliseconds `stop()` lets the jobs in flight finish before aborting their `ctx.signal`
   * (default 10000; Infinity: never abort). Keep it well under the process's shutdown grace
   * (SHUTDOWN_GRACE_MS, 25 s), so an aborted job still has time to clean up and be handed back. A
   * job rejecting after the abort is handed back at once (nak without delay); that redelivery
   * raises its delivery count, as any redelivery does, but is not logged or backed off as a failure.
   */
  drainMs?: number;
}

export type RequestHandler = (payload: unknown, ctx: MessageContext) => Promise<BusReply>;
export type EventHandler = (payload: unknown, ctx: MessageContext) => Promise<void>;
/** Resolve to acknowledge; throw to have the job redelivered (at-least-once). */
export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<void>;

/** A live subscription. */
export interface Subscription {
  /**
   * Stops taking new messages and resolves once every handler in flight has settled. A work
   * subscription aborts its jobs' `ctx.signal` if they are still running after `drainMs`.
   */
  stop(): Promise<void>;
}

/**
 * The message bus: request/reply served by queue groups, durable events, durable work queues.
 * Payloads are JSON values of any size up to BUS_MAX_MESSAGE_BYTES: the adapters carry one larger
 * than the medium's max_payload in chunks or by reference, so no caller has to think about it. A
 * message that cannot be carried fails at once with a BusPayloadError (500), never a timeout.
 * Still, never put file bytes on the bus: send blob keys.
 */
export interface Bus {
  /**
   * Sends a request to whichever member of the serving queue group answers first.
   * Rejects with TimeoutError (504) when nobody answers in time, UnavailableError (503, with
   * Retry-After) when no one is subscribed at all, or as soon as the request is known lost: the
   * connection dropped, or the process holding it went away (NATS: nats-request-watch.ts).
   */
  request(subject: string, payload: unknown, opts?: RequestOptions): Promise<BusReply>;
  /** Serves requests on `subject`; members of one `queue` share the load. */
  serve(subject: string, queue: string, handler: RequestHandler): Promise<Subscription>;
  /** Publishes a durable event (kept in a stream; consumers that were down still receive it). */
  publish(subject: string, payload: unknown, opts?: PublishOptions): Promise<void>;
  /**
   * Consumes durable events matching `subject` (wildcards allowed). Every distinct `durable`
   * name receives every event once; subscribers sharing a `durable` name share them. At-least-once:
   * a handler that throws gets the event again.
   */
  subscribe(subject: string, durable: string, handler: EventHandler): Promise<Subscription>;
  /**
   * Every live listener receives every message on `subject` from now on: no durability, no
   * replay, no acknowledgement. For fan-out that must reach each replica (cache invalidation),
   * where a durable consumer per replica would pile up on the server.
   */
  listen?(subject: string, handler: EventHandler): Promise<Subscription>;
  /** Enqueues a durable job (work-queue retention: removed once acknowledged). */
  enqueue(subject: string, payload: unknown, opts?: PublishOptions): Promise<void>;
  /** Takes jobs from `subject`; every worker with the same `queue` shares them. */
  work(subject: string, queue: string, handler: JobHandler, opts?: WorkOptions): Promise<Subscription>;
  /**
   * Calls `listener` at once with whether the connection to the medium is up, then at every
   * change (NATS: disconnected, reconnected); returns what stops it. For callers that would
   * rather fail fast than wait out a timeout while the bus is down (the circuit breaker).
   */
  onConnection?(listener: (up: boolean) => void): () => void;
  /** Jobs waiting (not yet acknowledged) on `subject`, for metrics and autoscaling. */
  pending?(subject: string, queue: string): Promise<number>;
  /** Stops every subscription (waiting for in-flight handlers) and closes the connection. */
  close(): Promise<void>;
}
