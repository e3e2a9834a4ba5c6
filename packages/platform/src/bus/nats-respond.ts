import type { Msg } from 'nats';
import type { Logger } from 'pino';
import { replyForError, UnavailableError, type BusReply } from '@patchbay/contracts';
import { encodePayload } from './envelope-codec';
import type { Framed, LargeMessages } from './large-messages';
import { busHeaders, quietly } from './nats-helpers';
import { fromNatsError, isMaxPayloadError } from './nats-errors';

/**
 * Answers a request over NATS: in one message, or in chunks when the reply is larger than the
 * server's max_payload. A reply the bus cannot carry at all (over BUS_MAX_MESSAGE_BYTES, or refused
 * by the server after all) is replaced by the 500 that says why, sent at once, so the requester
 * never waits out its timeout for an answer that was never going to come. Settles once the reply has
 * left this process (sent whole, or its chunks' offer closed).
 */
export function respond(msg: Msg, reply: BusReply, large: LargeMessages, logger: Logger): Promise<void> {
  const what = `the reply on ${msg.subject}`;
  const errorReply = (err: unknown): Framed => {
    // Too large for the bus is a defect to fix; a full chunk budget is load, answered 503 (warn).
    const level = err instanceof UnavailableError ? 'warn' : 'error';
    logger[level]({ err, subject: msg.subject }, 'reply cannot be sent; answering with the error instead');
    return { data: encodePayload(replyForError(err)), release: () => undefined, sent: Promise.resolve() };
  };
  let framed: Framed;
  try {
    framed = large.frame(encodePayload(reply), what);
  } catch (err) {
    framed = errorReply(err);
  }
  const send = (f: Framed) => msg.respond(f.data, { headers: busHeaders({ chunked: f.chunked }) });
  try {
    if (!send(framed)) {
      framed.release();
      logger.warn({ subject: msg.subject }, 'reply not sent: the request had no reply subject');
    }
  } catch (err) {
    framed.release();
    if (isMaxPayloadError(err)) quietly(() => send(errorReply(fromNatsError(err, what))));
    else logger.warn({ err, subject: msg.subject }, 'reply not sent: connection closed');
  }
  return framed.sent;
}
