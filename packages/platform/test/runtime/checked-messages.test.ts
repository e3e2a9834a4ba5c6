/**
 * The receive-side check of internal messages (runtime/checked-messages.ts) on the in-process bus:
 * a request that fits its schema reaches its handler typed; one that does not is answered 400
 * naming the fields, logged at error with its subject, and never reaches the handler; a malformed
 * event or job is logged and acknowledged, and the next one is handled.
 */
import { Type } from '@sinclair/typebox';
import { unwrapReply, type RequestTable } from '@patchbay/contracts';
import { MemoryBus } from '../../src/bus/memory-bus';
import { checkedEvent, checkedJob, serveRequests } from '../../src/runtime/checked-messages';
import { captureLogger } from '../../src/testing/capture-logger';
import { consistently, untilTrue } from '../../../../tests/support/poll';

const TABLE = {
  'svc.test.things.get': {
    request: Type.Object({
      thing_sid: Type.String({ minLength: 1 }),
      limit: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
    reply: Type.Object({ thing_sid: Type.String() }),
  },
} as const satisfies RequestTable;

const REFUSED = 'malformed internal message refused';

let hub: ReturnType<typeof MemoryBus.hub>;
let server: MemoryBus;
let caller: MemoryBus;
beforeEach(() => {
  hub = MemoryBus.hub();
  server = new MemoryBus(hub);
  caller = new MemoryBus(hub);
});
afterEach(async () => {
  await server.close();
  await caller.close();
});

test('a request that fits reaches its handler; one that does not is a logged 400 naming the fields', async () => {
  const { logger, lines } = captureLogger('info');
  const seen: unknown[] = [];
  await serveRequests(
    server,
    'test',
    TABLE,
    {
      'svc.test.things.get': async (req) => {
        seen.push(req);
        return { thing_sid: req.thing_sid };
      },
    },
    logger,
  );

  expect(unwrapReply(await caller.request('svc.test.things.get', { thing_sid: 't1', limit: '5' }))).toEqual({
    thing_sid: 't1',
  });
  expect(seen).toEqual([{ thing_sid: 't1', limit: 5 }]);

  for (const bad of [{ limit: 0 }, null, 'text', [1], undefined]) {
    const reply = await caller.request('svc.test.things.get', bad, { requestId: 'req-1' });
    expect(reply.status).toBe(400);
    expect('error' in reply && reply.error.errors.length).toBeGreaterThan(0);
  }
  const first = await caller.request('svc.test.things.get', { limit: 0, extra: true });
  expect('error' in first && first.error.errors.map((e) => e.field).sort()).toEqual(['limit', 'thing_sid']);
  expect(seen).toHaveLength(1);
  const refused = lines.filter((l) => l.msg === REFUSED);
  expect(refused).toHaveLength(6);
  expect(refused[0]).toMatchObject({ level: 50, subject: 'svc.test.things.get', requestId: 'req-1' });
  // The service still answers.
  expect(unwrapReply(await caller.request('svc.test.things.get', { thing_sid: 't2' }))).toEqual({ thing_sid: 't2' });
});

test('a malformed event is logged and acknowledged (not redelivered); the next one is handled', async () => {
  const { logger, lines } = captureLogger('info');
  const handled: string[] = [];
  await server.subscribe(
    'evt.thing.made',
    'test',
    checkedEvent('evt.thing.made', Type.Object({ thing_sid: Type.String() }), logger, async (e) => {
      handled.push(e.thing_sid);
    }),
  );
  await caller.publish('evt.thing.made', { thing_sid: 7 });
  await caller.publish('evt.thing.made', { thing_sid: 'ok' });
  await untilTrue(() => handled.length === 1);
  await consistently(() => expect(handled).toEqual(['ok']), 50); // the malformed one never comes back
  expect(lines.filter((l) => l.msg === REFUSED).map((l) => l.subject)).toEqual(['evt.thing.made']);
});

test('a malformed job is logged and acknowledged, never run; the next one runs', async () => {
  const { logger, lines } = captureLogger('info');
  const ran: number[] = [];
  await server.work(
    'job.test.run',
    'test',
    checkedJob('job.test.run', Type.Object({ n: Type.Integer() }), logger, async (j) => {
      ran.push(j.n);
    }),
  );
  await caller.enqueue('job.test.run', { n: 'x' });
  await caller.enqueue('job.test.run', { n: 3 });
  await untilTrue(() => ran.length === 1);
  await consistently(() => expect(ran).toEqual([3]), 50); // the malformed one never runs
  expect(lines.filter((l) => l.msg === REFUSED)).toHaveLength(1);
});
