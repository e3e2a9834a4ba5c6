import { ErrorCode, NatsError } from 'nats';
import { TimeoutError, UnavailableError, type ApiError } from '@patchbay/contracts';
import { BUS_RETRY_AFTER_S, BusPayloadError, NoRespondersError } from './bus-errors';

/** JetStream API error codes this adapter reacts to. */
export const JsErr = {
  streamNotFound: 10059,
  consumerNotFound: 10014,
} as const;

/** The JetStream API error code a failed call carries, if any. */
export function jsErrorCode(err: unknown): number | undefined {
  return err instanceof NatsError ? err.api_error?.err_code : undefined;
}

/**
 * Translates a NATS failure at the port's edge, so no raw driver error reaches a caller:
 * a timeout (also JetStream's 408) is a 504, a message over max_payload a 500 (BusPayloadError),
 * everything else (no responders, connection closed, draining or down, a JetStream API refusal)
 * means the service is unavailable: 503 with Retry-After (NoRespondersError when nobody serves the subject).
 */
export function fromNatsError(err: unknown, what: string): ApiError {
  const code = err instanceof NatsError ? err.code : undefined;
  if (code === ErrorCode.Timeout || code === ErrorCode.JetStream408RequestTimeout) {
    return new TimeoutError({ message: `${what} timed out`, cause: err });
  }
  const retry = { cause: err, retryAfterSeconds: BUS_RETRY_AFTER_S };
  if (code === ErrorCode.NoResponders) return new NoRespondersError({ message: `${what}: no responders`, ...retry });
  if (code === ErrorCode.MaxPayloadExceeded)
    return new BusPayloadError({ message: `${what}: larger than the NATS server's max_payload`, cause: err });
  return new UnavailableError({ message: `${what} failed`, ...retry });
}

/** nats.js refused to send a message larger than the server's max_payload. */
export function isMaxPayloadError(err: unknown): boolean {
  return err instanceof NatsError && err.code === ErrorCode.MaxPayloadExceeded;
}
