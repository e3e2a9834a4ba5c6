import { Registry } from 'prom-client';
import { ApiError, NotFoundError, UnavailableError } from '@patchbay/contracts';
import { MemoryBus } from '../../src/bus/memory-bus';
import { InstrumentedBus } from '../../src/bus/instrumented-bus';
import { serveAll, reply } from '../../src/runtime/serve-all';
import { captureLogger } from '../bus/bus-test-kit';

describe('serveAll', () => {
  test('logs each answer with the request ID, and hands the handler a logger carrying it', async () => {
    const hub = MemoryBus.hub();
    const { logger, lines } = captureLogger();
    const bus = new InstrumentedBus(new MemoryBus(hub), new Registry());
    await serveAll(
      bus,
      'things',
      {
        'svc.things.a.get': async (_p, ctx) => {
          ctx.log?.info({ thing: 1 }, 'working on it');
          return { ok: true };
        },
        'svc.things.a.create': async () => reply(201, { made: true }),
        'svc.things.a.missing': async () => {
          throw new NotFoundError({ message: 'Cannot find item by SID' });
        },
        'svc.things.a.broken': async () => {
          throw new Error('boom');
        },
      },
      logger.child({ svc: 'things' }),
    );
    expect(await bus.request('svc.things.a.get', null, { requestId: 'rid-1' })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect((await bus.request('svc.things.a.create', null, { requestId: 'rid-2' })).status).toBe(201);
    expect((await bus.request('svc.things.a.missing', null, { requestId: 'rid-3' })).status).toBe(404);
    expect((await bus.request('svc.things.a.broken', null, { requestId: 'rid-4' })).status).toBe(500);
    await bus.request('svc.things.a.get', null);
    const of = (id: string) => lines.filter((l) => l.requestId === id);
    expect(of('rid-1').map((l) => l.msg)).toEqual(['working on it', 'handled']);
    expect(of('rid-1')[1]).toMatchObject({ svc: 'things', subject: 'svc.things.a.get', status: 200, level: 30 });
    expect(of('rid-2')[0]).toMatchObject({ status: 201, msg: 'handled' });
    expect(of('rid-3')).toHaveLength(1);
    expect(of('rid-4').map((l) => l.msg)).toEqual(['handler failed', 'handled']);
    expect(lines.filter((l) => l.msg === 'handled' && !('requestId' in l))).toHaveLength(1);
    await bus.close();
  });

  test('a store error reaching the caller is logged at error level with its cause; a bare 503 is not', async () => {
    const hub = MemoryBus.hub();
    const { logger, lines } = captureLogger();
    const bus = new MemoryBus(hub);
    const cause = new Error('Expression tree is too large (maximum depth 1000)');
    await serveAll(
      bus,
      'things',
      {
        'svc.things.a.list': async () => {
          throw new ApiError({ code: 'store_error', message: 'document store error', cause });
        },
        'svc.things.a.busy': async () => {
          throw new UnavailableError({ message: 'document store busy', cause: new Error('SQLITE_BUSY') });
        },
        'svc.things.a.shed': async () => {
          throw new UnavailableError({ message: 'try again' });
        },
      },
      logger,
    );
    expect((await bus.request('svc.things.a.list', null, { requestId: 'r1' })).status).toBe(500);
    expect((await bus.request('svc.things.a.busy', null, { requestId: 'r2' })).status).toBe(503);
    expect((await bus.request('svc.things.a.shed', null, { requestId: 'r3' })).status).toBe(503);
    const errors = lines.filter((l) => l.level === 50);
    expect(errors.map((l) => [l.requestId, l.subject, l.status])).toEqual([
      ['r1', 'svc.things.a.list', 500],
      ['r2', 'svc.things.a.busy', 503],
    ]);
    expect(JSON.stringify(errors[0])).toContain('maximum depth 1000');
    await bus.close();
  });
});
