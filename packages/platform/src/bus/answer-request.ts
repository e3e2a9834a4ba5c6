import type { Logger } from 'pino';
import { ApiError, replyForError, type BusReply } from '@patchbay/contracts';
import { decodePayload } from './envelope-codec';
import type { MessageContext, RequestHandler } from './port';

/**
 * Runs a request handler on an encoded payload and always produces a reply: a thrown ApiError
 * becomes its status and error body (logged here when it is the server's fault: isServerFault); anything else
 * is logged here (the caller only sees a generic 500). A malformed payload is a 400.
 */
export async function answerRequest(
  handler: RequestHandler,
  data: Uint8Array,
  ctx: MessageContext,
  logger: Logger,
): Promise<BusReply> {
  try {
    return await handler(decodePayload(data), ctx);
  } catch (err) {
    if (!(err instanceof ApiError) || isServerFault(err))
      logger.error({ err, subject: ctx.subject, requestId: ctx.requestId }, 'request handler failed');
    return replyForError(err);
  }
}

/**
 * A typed error that reports the server's own failure rather than the client's: a 500 (a store or
 * blob-store error), or any other 5xx that carries an underlying cause (a store busy or unreachable).
 * A 503 or 504 without a cause is the bus's or a gate's considered answer and is logged where decided.
 */
export function isServerFault(err: ApiError): boolean {
  return err.status === 500 || (err.status > 500 && err.cause !== undefined);
}
