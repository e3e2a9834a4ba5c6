import { ApiError, UnavailableError } from '@patchbay/contracts';

/**
 * No process serves the subject (NATS's no-responders). Its own class so the circuit breaker can
 * tell "the service is not there" from the other 503s an adapter raises.
 */
export class NoRespondersError extends UnavailableError {}

/**
 * A message the bus cannot carry: larger than `maxMessageBytes` even in chunks, or whose chunks
 * were lost or came back wrong. Raised at once, on the side that finds it (the sender before
 * anything is sent, the receiver on the first missing or extra byte), never left to a timeout. A
 * 500: the service made something the deployment's bus is set up not to carry, which no retry
 * cures; the circuit breaker never counts it (the service did answer).
 */
export class BusPayloadError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(500, 'bus_payload', message, [], options);
  }
}
