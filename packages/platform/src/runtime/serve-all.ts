import type { Logger } from 'pino';
import { replyForError, ok, ApiError, type BusReply } from '@patchbay/contracts';
import type { Bus, MessageContext, Subscription } from '../bus/port';
import { isServerFault } from '../bus/answer-request';
import type { KeptAnswers } from './kept-answers';

/** What a handler gets with its message: the subject, the request ID, and a logger carrying that ID. */
export interface HandlerContext extends MessageContext {
  /**
   * The service's logger with `requestId` bound, so every line a handler writes can be traced.
   * Always set by serveAll; optional so tests and benchmarks can call a handler directly.
   */
  log?: Logger;
}

/** Subject → handler returning the reply body (status 200) or a full BusReply. */
export type RouteHandlers = Record<string, (payload: unknown, ctx: HandlerContext) => Promise<unknown>>;

/** How a service serves its requests beyond the handlers. */
export interface ServeOptions {
  /** Where the service keeps its answers to writes sent with an Idempotency-Key (kept-answers.ts). */
  answers?: KeptAnswers;
}

/**
 * Serves every subject of `handlers` in the service's queue group. Thrown ApiErrors become their
 * status and error body; anything else is logged with the subject and becomes a generic 500. A typed
 * error that is the server's fault (isServerFault: a store error) is logged at error level too, with
 * its cause, so no 500 reaches a client silently.
 * Every answer is logged (JSON, at info) with the request ID the gateway set, the subject, status
 * and duration, so one call can be followed through every service it touched.
 */
export async function serveAll(
  bus: Bus,
  queue: string,
  handlers: RouteHandlers,
  logger: Logger,
  opts: ServeOptions = {},
): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  for (const [subject, handle] of Object.entries(handlers)) {
    subs.push(
      await bus.serve(subject, queue, async (payload, ctx): Promise<BusReply> => {
        const log = ctx.requestId ? logger.child({ requestId: ctx.requestId }) : logger;
        const started = performance.now();
        const run = async (): Promise<BusReply> => {
          try {
            const result = await handle(payload, { ...ctx, log });
            return isReply(result) ? result : ok(result);
          } catch (err) {
            if (!(err instanceof ApiError)) log.error({ err, subject }, 'handler failed');
            else if (isServerFault(err))
              log.error({ err, subject, status: err.status }, 'handler answered a server error');
            return replyForError(err);
          }
        };
        const answer = opts.answers ? await opts.answers.serve(payload, run) : await run();
        log.info({ subject, status: answer.status, ms: Math.round(performance.now() - started) }, 'handled');
        return answer;
      }),
    );
  }
  return subs;
}

const REPLY = Symbol.for('patchbay.reply');
function isReply(v: unknown): v is BusReply {
  return typeof v === 'object' && v !== null && REPLY in v && v[REPLY] === true;
}

/** Marks a reply with a non-200 status (e.g. 201, 204) so serveAll passes it through as-is. */
export function reply(status: number, body: unknown): BusReply {
  return Object.assign({ status, body }, { [REPLY]: true });
}
