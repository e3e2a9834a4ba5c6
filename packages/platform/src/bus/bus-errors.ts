import { ApiError, UnavailableError } from '@patchbay/contracts';

/** Seconds a caller is told to wait (Retry-After) after a 503 the bus raised for a passing cause. */
export const BUS_RETRY_AFTER_S = 1;

/**
 * No process serves the subject (NATS's no-responders). Its own class so the circuit breaker can
 * tell "the service is not there" from the other 503s an adapter raises.
 */
export class NoRespondersError extends UnavailableError {
  constructor(opts: { message?: string; cause?: unknown; retryAfterSeconds?: number } = {}) {
    super({ ...opts, code: 'no_responders' });
  }
}

/**
 * The process that took a request went away before answering it (NATS up, the process killed):
 * found by asking that process, not by waiting out the timeout (request-watch.ts). A 503 with
 * Retry-After: another member of the queue group, or the same service restarted, may answer a
 * retry. Not counted by the circuit breaker: one instance gone is not the service gone (a request
 * with nobody left to serve it is a NoRespondersError at once).
 */
export class ResponderLostError extends UnavailableError {
  constructor(opts: { message: string }) {
    super({ message: opts.message, retryAfterSeconds: BUS_RETRY_AFTER_S });
  }
}

/**
 * A message the bus cannot carry: larger than `maxMessageBytes` even in chunks, or whose chunks
 * came back wrong (not the announced sizes). Raised at once, on the side that finds it (the sender
 * before anything is sent, the receiver on the first wrong byte count), never left to a timeout. A
 * 500: the service made something the deployment's bus is set up not to carry, which no retry
 * cures; the circuit breaker never counts it (the service did answer). A chunk that does not come
 * is not this: it is asked for again, then a 503 (chunked-transfer.ts).
 */
export class BusPayloadError extends ApiError {
  constructor(opts: { message: string; cause?: unknown }) {
    super({ ...opts, code: 'bus_payload' });
  }
}

/**
 * Thrown by a job handler that wants its job back later without it counting as a failure: the job
 * is not due yet, or the handler keeps its own backoff (a media probe retried until the transcoder
 * answers, decisions §49). The job is handed back after `delayMs` (nak with that delay) and
 * nothing is logged; the delivery still counts toward the subscription's `maxDeliver`.
 */
export class RetryLaterError extends Error {
  constructor(
    readonly delayMs: number,
    message = `retry in ${delayMs} ms`,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}
