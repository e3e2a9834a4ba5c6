import type { Logger } from 'pino';
import { ApiError } from '@patchbay/contracts';
import { BusPayloadError, RetryLaterError } from './bus-errors';
import { decodePayload } from './envelope-codec';
import type { JobHandler, TraceCarrier } from './port';

/**
 * One message handed out by a durable consumer (a JetStream pull, or the in-process equivalent).
 * Exactly one of ack/nak/term settles it; `working` only pushes the ack deadline back.
 */
export interface Delivery {
  readonly subject: string;
  readonly data: Uint8Array;
  /**
   * For a message whose body was too large to travel in it: reads the body from where the sender
   * kept it (instead of `data`). Rejects with BusPayloadError when it is gone for good.
   */
  load?(): Promise<Uint8Array>;
  readonly requestId?: string;
  /** The sender's trace context (port.ts, TraceCarrier). */
  readonly traceContext?: TraceCarrier;
  /** 1 on first delivery. */
  readonly deliveryCount: number;
  /** Acknowledges; resolves once the medium has recorded it (or gave up trying: at-least-once). */
  ack(): Promise<void>;
  /** Hands the message back for redelivery after `delayMs`. */
  nak(delayMs: number): void;
  /** Gives the message up for good (a work queue drops it). */
  term(): void;
  working(): void;
}

/** A source of deliveries for one subscription; both adapters plug one into a PullWorker. */
export interface DeliverySource {
  /** The next delivery, or null when nothing came in a while (the caller simply asks again). */
  next(): Promise<Delivery | null>;
  /** Ends outstanding and future `next` calls with null; deliveries arriving later are handed back. */
  close(): void;
}

/** Redelivery backoff after a handler failure: short at first, capped at 10 s. */
export function retryDelayMs(deliveryCount: number): number {
  return Math.min(100 * 2 ** Math.max(0, deliveryCount - 1), 10_000);
}

export interface SettleOptions {
  maxDeliver: number;
  kind: 'event' | 'job';
  logger: Logger;
  /** The handler's abort signal (jobs): once aborted, a failure is a hand-back, not a failure. */
  signal?: AbortSignal;
}

/**
 * Runs a handler on a delivery and settles it: resolve → ack; throw → nak with backoff, until
 * `maxDeliver` deliveries have been spent, then term with an error log. A throw after `signal` was
 * aborted (the subscription is stopping and its drain deadline passed) is a hand-back instead:
 * nak without delay, so another subscriber takes it at once, with no backoff, no term and no
 * failure log; only the medium's delivery count records it. A delivery already past `maxDeliver`
 * (its last attempt timed out or was handed back) is dropped unrun. Never throws.
 */
export async function settle(
  d: Delivery,
  run: (payload: unknown) => Promise<void>,
  opts: SettleOptions,
): Promise<void> {
  const where = { subject: d.subject, requestId: d.requestId, deliveryCount: d.deliveryCount };
  if (d.deliveryCount > opts.maxDeliver) {
    opts.logger.error(
      where,
      `${opts.kind} dropped: its last allowed delivery was never settled (ack wait expired or handed back)`,
    );
    d.term();
    return;
  }
  let payload: unknown;
  try {
    payload = decodePayload(d.load ? await d.load() : d.data);
  } catch (err) {
    if (err instanceof BusPayloadError || !(err instanceof ApiError) || err.status === 400) {
      opts.logger.error({ ...where, err }, `${opts.kind} dropped: malformed payload or its body is gone`);
      d.term();
    } else {
      // The body's store is out of reach for now (connection down): try again later.
      opts.logger.warn({ ...where, err }, `${opts.kind} body not readable now; redelivering`);
      d.nak(retryDelayMs(d.deliveryCount));
    }
    return;
  }
  try {
    await run(payload);
  } catch (err) {
    if (err instanceof RetryLaterError && !opts.signal?.aborted && d.deliveryCount < opts.maxDeliver) {
      d.nak(Math.max(0, err.delayMs));
    } else if (opts.signal?.aborted) {
      opts.logger.info(
        { ...where, reason: String(opts.signal.reason) },
        `${opts.kind} handed back unfinished: its subscription is stopping`,
      );
      d.nak(0);
    } else if (d.deliveryCount >= opts.maxDeliver) {
      opts.logger.error({ ...where, err }, `${opts.kind} dropped after ${d.deliveryCount} failed deliveries`);
      d.term();
    } else {
      opts.logger.warn({ ...where, err }, `${opts.kind} handler failed; redelivering`);
      d.nak(retryDelayMs(d.deliveryCount));
    }
    return;
  }
  await d.ack();
}

/**
 * What a work subscription runs for each delivery (both adapters): the handler gets the job's
 * context, `signal` included, and the delivery is settled as a job.
 */
export function jobRunner(
  handler: JobHandler,
  opts: { maxDeliver: number; logger: Logger },
): (d: Delivery, signal: AbortSignal) => Promise<void> {
  return (d, signal) =>
    settle(
      d,
      (payload) =>
        handler(payload, {
          subject: d.subject,
          requestId: d.requestId,
          traceContext: d.traceContext,
          deliveryCount: d.deliveryCount,
          working: () => d.working(),
          signal,
        }),
      { ...opts, kind: 'job', signal },
    );
}
