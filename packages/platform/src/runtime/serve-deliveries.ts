import type { Logger } from 'pino';
import type { Static } from '@sinclair/typebox';
import type { PayloadSpec, PayloadTable } from '@patchbay/contracts';
import type { Bus, EventHandler, JobContext, MessageContext, Subscription, WorkOptions } from '../bus/port';
import { checkedEvent, checkedJob } from './checked-messages';

/**
 * The one way a service consumes events and jobs, as serveRequests serves requests: a table of the family's
 * subjects (messages/<family>.ts, `{ payload }`) and one entry per subject consumed, declared in service.ts. Each
 * payload is checked before its entry sees it (checkedEvent, checkedJob: a malformed one is logged and
 * acknowledged); the entry gets the message typed, and the bus's context with a logger carrying its request ID.
 * Everything else is the bus's: an event or job whose entry throws comes again (at-least-once), a job that
 * throws RetryLaterError is handed back after its delay, JetStream or the in-process bus alike.
 */

/** What an entry gets with its message: the bus's context, and the service's logger with the request ID bound. */
export type Delivered<C extends MessageContext> = C & { log: Logger };

/** The consumer of one event subject: the event as its schema says. */
export type EventConsumer<S extends PayloadSpec> = (
  event: Static<S['payload']>,
  ctx: Delivered<MessageContext>,
) => Promise<unknown>;

/** The subjects of a table a service consumes (any of them; a subject not in the table does not compile). */
export type EventConsumers<T extends PayloadTable> = { [K in keyof T]?: EventConsumer<T[K]> };

/** The worker of one job subject: `run` the job as its schema says, with the subscription's options. */
export interface JobWorker<S extends PayloadSpec> {
  run: (job: Static<S['payload']>, ctx: Delivered<JobContext>) => Promise<unknown>;
  options?: WorkOptions;
}

/** The job subjects of a table a service works. */
export type JobWorkers<T extends PayloadTable> = { [K in keyof T]?: JobWorker<T[K]> };

/**
 * Consumes each event subject given, durably: every distinct `durable` name receives every event once, and
 * replicas sharing it share them (Bus.subscribe).
 */
export async function serveEvents<T extends PayloadTable>(
  bus: Bus,
  durable: string,
  table: T,
  consumers: EventConsumers<T>,
  logger: Logger,
): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  for (const [subject, handle] of entries(table, consumers, logger))
    subs.push(await bus.subscribe(subject, durable, handle));
  return subs;
}

/**
 * Every live replica receives each event subject given from now on (Bus.listen: no durability, no replay), for
 * fan-out such as dropping a cache. None when the bus cannot fan out (it has no `listen`).
 */
export async function listenEvents<T extends PayloadTable>(
  bus: Bus,
  table: T,
  consumers: EventConsumers<T>,
  logger: Logger,
): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  if (!bus.listen) return subs;
  for (const [subject, handle] of entries(table, consumers, logger)) subs.push(await bus.listen(subject, handle));
  return subs;
}

/** Works each job subject given, in the `queue` every replica of the worker shares (Bus.work). */
export async function serveJobs<T extends PayloadTable>(
  bus: Bus,
  queue: string,
  table: T,
  workers: JobWorkers<T>,
  logger: Logger,
): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  for (const [subject, spec] of Object.entries(table)) {
    // why: the mapped type cannot be indexed by a plain string; the keys are the table's own.
    const worker = (workers as Record<string, JobWorker<PayloadSpec> | undefined>)[subject];
    if (!worker) continue;
    const handle = checkedJob(subject, spec.payload, logger, async (job, ctx) => {
      await worker.run(job, { ...ctx, log: withRequestId(logger, ctx) });
    });
    subs.push(await bus.work(subject, queue, handle, worker.options));
  }
  return subs;
}

/** The checked handler of each event subject given, in the table's order. */
function entries<T extends PayloadTable>(
  table: T,
  consumers: EventConsumers<T>,
  logger: Logger,
): Array<[string, EventHandler]> {
  const out: Array<[string, EventHandler]> = [];
  for (const [subject, spec] of Object.entries(table)) {
    // why: the mapped type cannot be indexed by a plain string; the keys are the table's own.
    const consume = (consumers as Record<string, EventConsumer<PayloadSpec> | undefined>)[subject];
    if (!consume) continue;
    out.push([
      subject,
      checkedEvent(subject, spec.payload, logger, async (event, ctx) => {
        await consume(event, { ...ctx, log: withRequestId(logger, ctx) });
      }),
    ]);
  }
  return out;
}

function withRequestId(logger: Logger, ctx: MessageContext): Logger {
  return ctx.requestId ? logger.child({ requestId: ctx.requestId }) : logger;
}
