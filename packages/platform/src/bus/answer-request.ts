import type { Logger } from 'pino';
import { ApiError, replyForError, type BusReply } from '@patchbay/contracts';
import { decodePayload } from './envelope-codec';
import type { MessageContext, RequestHandler } from './port';
import { isServerFault } from '../runtime/serve-all';

/**
 * Runs a request handler on an encoded payload and always produces a reply: a thrown ApiError
 * becomes its status and error body (logged here when it is the server's fault: isServerFault); anything else is
 * logged here (the caller only sees a
 * generic 500). A malformed payload is a 400.
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
