import type { Logger } from 'pino';
import type { Static, TSchema } from '@sinclair/typebox';
import { ApiError, compileValidator, type RequestSpec, type RequestTable } from '@patchbay/contracts';
import type { EventHandler, JobContext, JobHandler, MessageContext, Subscription, Bus } from '../bus/port';
import { serveAll, type HandlerContext, type RouteHandlers, type ServeOptions } from './serve-all';

/**
 * Every internal message is checked where it is received, against its schema in contracts
 * (messages/<family>.ts), and only then handed to its handler, typed. A malformed message means a
 * caller out of step (a bug, or a rolling update): it is refused with an error in the log naming
 * the subject and the fields — a request gets a 400 reply naming them, an event or a job is
 * dropped (acknowledged: delivering it again cannot mend it) — and never reaches the handler or
 * crashes the service.
 */

/** The handler of one request subject: the request as its schema says; the reply body (or a `reply()`). */
export type CheckedHandler<S extends RequestSpec> = (
  input: Static<S['request']>,
  ctx: HandlerContext,
) => Promise<unknown>;

/** One handler per subject of a table: a subject left out does not compile. */
export type CheckedHandlers<T extends RequestTable> = { [K in keyof T]: CheckedHandler<T[K]> };

/** A check of one subject's payloads, compiled once: the payload typed, or the 400 thrown after logging it. */
export function messageCheck<S extends TSchema>(
  subject: string,
  schema: S,
): (payload: unknown, log: Logger) => Static<S> {
  const validate = compileValidator(schema);
  return (payload, log) => {
    try {
      return validate(payload);
    } catch (err) {
      const fields = err instanceof ApiError ? err.toBody().errors : [];
      log.error({ subject, fields }, 'malformed internal message refused');
      throw err;
    }
  };
}

/**
 * Serves every request subject of `table` in the service's queue group (serveAll), each payload
 * checked against its request schema before its handler sees it; with `opts.answers`, a write sent
 * with an Idempotency-Key runs once per key (kept-answers.ts).
 */
export async function serveRequests<T extends RequestTable>(
  bus: Bus,
  queue: string,
  table: T,
  handlers: CheckedHandlers<T>,
  logger: Logger,
  opts: ServeOptions = {},
): Promise<Subscription[]> {
  const routes: RouteHandlers = {};
  for (const [subject, spec] of Object.entries(table)) {
    const check = messageCheck(subject, spec.request);
    // why: the mapped type cannot be indexed by a plain string; the keys are the table's own.
    const handle = (handlers as Record<string, CheckedHandler<RequestSpec>>)[subject];
    routes[subject] = (payload, ctx) => handle(check(payload, ctx.log ?? logger), ctx);
  }
  return serveAll(bus, queue, routes, logger, opts);
}

/** An event handler that receives only events its schema accepts; a malformed one is logged and acknowledged. */
export function checkedEvent<S extends TSchema>(
  subject: string,
  schema: S,
  logger: Logger,
  handle: (event: Static<S>, ctx: MessageContext) => Promise<void>,
): EventHandler {
  return checkedDelivery(subject, schema, logger, handle);
}

/** A job handler that runs only jobs its schema accepts; a malformed one is logged and acknowledged. */
export function checkedJob<S extends TSchema>(
  subject: string,
  schema: S,
  logger: Logger,
  handle: (job: Static<S>, ctx: JobContext) => Promise<void>,
): JobHandler {
  return checkedDelivery(subject, schema, logger, handle);
}

/**
 * A delivery (event or job) checked before `handle` sees it; a malformed one was logged by the check and is dropped.
 */
function checkedDelivery<S extends TSchema, C>(
  subject: string,
  schema: S,
  logger: Logger,
  handle: (message: Static<S>, ctx: C) => Promise<void>,
): (payload: unknown, ctx: C) => Promise<void> {
  const check = messageCheck(subject, schema);
  return async (payload, ctx) => {
    let message: Static<S>;
    try {
      message = check(payload, logger);
    } catch {
      return;
    }
    await handle(message, ctx);
  };
}
