/**
 * The one consumer form of events and jobs (runtime/serve-deliveries.ts) on the in-process bus: only the subjects
 * given are consumed, each payload checked before its entry sees it typed, with the message's request ID on the
 * entry's logger; a job's options and the bus's retry semantics (throw: again; RetryLaterError: later) are kept.
 */
import { Type } from '@sinclair/typebox';
import type { PayloadTable } from '@patchbay/contracts';
import { RetryLaterError } from '../../src/bus/bus-errors';
import { MemoryBus } from '../../src/bus/memory-bus';
import { listenEvents, serveEvents, serveJobs } from '../../src/runtime/serve-deliveries';
import { captureLogger } from '../../src/testing/capture-logger';
import { untilTrue } from '../../../../tests/support/poll';

const EVENTS = {
  'evt.thing.made': { payload: Type.Object({ thing_sid: Type.String() }) },
  'evt.thing.gone': { payload: Type.Object({ thing_sid: Type.String() }) },
} as const satisfies PayloadTable;
const JOBS = {
  'job.test.run': { payload: Type.Object({ n: Type.Integer() }) },
} as const satisfies PayloadTable;

const open: MemoryBus[] = [];
/** An in-process bus on a hub of its own (closed after the test): consumer and sender alike. */
function busOfItsOwn(): MemoryBus {
  const bus = new MemoryBus(MemoryBus.hub());
  open.push(bus);
  return bus;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
});

test('events: only the subjects given, checked and typed, each logged under its request ID', async () => {
  const bus = busOfItsOwn();
  const { logger, lines } = captureLogger('info');
  const made: string[] = [];
  const subs = await serveEvents(
    bus,
    'test',
    EVENTS,
    {
      'evt.thing.made': async (e, ctx) => {
        made.push(e.thing_sid);
        ctx.log.info({ thing_sid: e.thing_sid }, 'made');
      },
    },
    logger,
  );
  expect(subs).toHaveLength(1);
  await bus.publish('evt.thing.made', { thing_sid: 7 });
  await bus.publish('evt.thing.made', { thing_sid: 'ok' }, { requestId: 'req-9' });
  await untilTrue(() => made.length === 1);
  expect(made).toEqual(['ok']);
  expect(lines.find((l) => l.msg === 'made')).toMatchObject({ thing_sid: 'ok', requestId: 'req-9' });
  expect(lines.filter((l) => l.msg === 'malformed internal message refused')).toHaveLength(1);
});

test('an event whose consumer throws comes again', async () => {
  const bus = busOfItsOwn();
  const { logger } = captureLogger('silent');
  let calls = 0;
  await serveEvents(
    bus,
    'test',
    EVENTS,
    {
      'evt.thing.gone': async () => {
        calls++;
        if (calls === 1) throw new Error('store down');
      },
    },
    logger,
  );
  await bus.publish('evt.thing.gone', { thing_sid: 'a' });
  await untilTrue(() => calls === 2, { what: 'a redelivery' });
});

test('listenEvents reaches every listener', async () => {
  const bus = busOfItsOwn();
  const { logger } = captureLogger('silent');
  const seen: string[] = [];
  for (const who of ['one', 'two'])
    await listenEvents(bus, EVENTS, { 'evt.thing.gone': async (e) => void seen.push(`${who}:${e.thing_sid}`) }, logger);
  await bus.publish('evt.thing.gone', { thing_sid: 'x' });
  await untilTrue(() => seen.length === 2);
  expect(seen.sort()).toEqual(['one:x', 'two:x']);
});

test('jobs: checked and typed, with their delivery count; RetryLaterError hands one back later', async () => {
  const bus = busOfItsOwn();
  const { logger } = captureLogger('silent');
  const runs: Array<[number, number]> = [];
  await serveJobs(
    bus,
    'test',
    JOBS,
    {
      'job.test.run': {
        run: async (job, ctx) => {
          runs.push([job.n, ctx.deliveryCount]);
          if (ctx.deliveryCount === 1) throw new RetryLaterError(20);
        },
        options: { concurrency: 1, maxDeliver: 3 },
      },
    },
    logger,
  );
  await bus.enqueue('job.test.run', { n: 'x' });
  await bus.enqueue('job.test.run', { n: 3 });
  await untilTrue(() => runs.length === 2, { what: 'the retry' });
  expect(runs).toEqual([
    [3, 1],
    [3, 2],
  ]);
});
