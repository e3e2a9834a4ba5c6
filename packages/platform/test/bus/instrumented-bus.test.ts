import { Registry } from 'prom-client';
import { ok, TimeoutError } from '@patchbay/contracts';
import { MemoryBus } from '../../src/bus/memory-bus';
import { InstrumentedBus } from '../../src/bus/instrumented-bus';
import { describeBusContract } from './bus-contract';
import { deferred, eventually, pause } from './bus-test-kit';

// The decorator must keep every promise of the port: the whole contract runs through it.
describeBusContract('InstrumentedBus over MemoryBus', async () => {
  const hub = MemoryBus.hub();
  const registry = new Registry();
  return {
    connect: async (opts) => new InstrumentedBus(new MemoryBus(hub, { logger: opts?.logger }), registry),
    teardown: async () => undefined,
  };
});

/** The value of one series of a Prometheus text page (0 when absent). */
async function sample(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const want = Object.entries(labels);
  const values = (metric?.values ?? []) as Array<{
    value: number;
    labels: Record<string, unknown>;
    metricName?: string;
  }>;
  return values
    .filter(
      (v) =>
        (!v.metricName || v.metricName === name || v.metricName === `${name}_count`) &&
        want.every(([k, val]) => String(v.labels[k]) === val),
    )
    .reduce((n, v) => n + v.value, 0);
}

describe('InstrumentedBus', () => {
  const setup = () => {
    const hub = MemoryBus.hub();
    const registry = new Registry();
    const open = () => new InstrumentedBus(new MemoryBus(hub), registry);
    return { registry, server: open(), client: open() };
  };

  test('counts requests per subject and outcome on both sides, timeouts included', async () => {
    const { registry, server, client } = setup();
    const release = deferred();
    await server.serve('svc.m.thing.get', 'm', async (p) => {
      if (p === 'slow') await release.promise;
      return ok(p, p === 'x' ? 201 : 200);
    });
    await client.request('svc.m.thing.get', 'a');
    await client.request('svc.m.thing.get', 'x');
    await expect(client.request('svc.m.thing.get', 'slow', { timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    await expect(client.request('svc.m.none.get', {})).rejects.toMatchObject({ status: 503 });
    expect(await sample(registry, 'bus_requests_total', { subject: 'svc.m.thing.get', outcome: '200' })).toBe(1);
    expect(await sample(registry, 'bus_requests_total', { subject: 'svc.m.thing.get', outcome: '201' })).toBe(1);
    expect(await sample(registry, 'bus_requests_total', { subject: 'svc.m.thing.get', outcome: 'timeout' })).toBe(1);
    expect(await sample(registry, 'bus_requests_total', { subject: 'svc.m.none.get', outcome: 'unavailable' })).toBe(1);
    expect(await sample(registry, 'bus_served_total', { subject: 'svc.m.thing.get', status: '201' })).toBe(1);
    const text = await registry.metrics();
    expect(text).toMatch(/bus_request_duration_seconds_count\{subject="svc.m.thing.get"\} 3/);
    release.resolve();
    await Promise.all([server.close(), client.close()]);
  });

  test(
    'carries the request ID of the message being handled to every request, ' + 'event and job sent meanwhile',
    async () => {
      const { registry, server, client } = setup();
      const seen: Record<string, string | undefined> = {};
      await server.serve('svc.m.inner.get', 'm', async (_p, ctx) => {
        seen.inner = ctx.requestId;
        return ok(null);
      });
      await server.subscribe('evt.m.happened', 'm-events', async (_p, ctx) => {
        seen.event = ctx.requestId;
      });
      await server.work('job.m.task', 'm', async (_p, ctx) => {
        seen.job = ctx.requestId;
        await client.request('svc.m.inner.get', null);
      });
      await server.serve('svc.m.outer.get', 'm', async () => {
        await pause(5); // a timer between: the request ID must outlive an await on one
        await client.request('svc.m.inner.get', null);
        await client.publish('evt.m.happened', {});
        return ok(null);
      });
      await client.request('svc.m.outer.get', null, { requestId: 'req-42' });
      expect(seen.inner).toBe('req-42');
      await eventually(() => expect(seen.event).toBe('req-42'));
      await client.request('svc.m.inner.get', null);
      expect(seen.inner).toBeUndefined();
      await server.serve('svc.m.enqueue', 'm', async () => {
        await client.enqueue('job.m.task', {});
        return ok(null);
      });
      seen.inner = 'none';
      await client.request('svc.m.enqueue', null, { requestId: 'req-43' });
      await eventually(() => expect(seen.job).toBe('req-43'));
      await eventually(() => expect(seen.inner).toBe('req-43'));
      expect(await sample(registry, 'bus_published_total', { subject: 'job.m.task', kind: 'job', result: 'ok' })).toBe(
        1,
      );
      await eventually(async () =>
        expect(await sample(registry, 'bus_handled_total', { subject: 'job.m.task', kind: 'job', result: 'ok' })).toBe(
          1,
        ),
      );
      expect(
        await sample(registry, 'bus_handled_total', { subject: 'evt.m.happened', kind: 'event', result: 'ok' }),
      ).toBe(1);
      await Promise.all([server.close(), client.close()]);
    },
  );

  test('keeps the optional capabilities of the adapter it wraps', async () => {
    const { server } = setup();
    expect(typeof server.listen).toBe('function');
    expect(typeof server.pending).toBe('function');
    const bare = new InstrumentedBus(
      { ...new MemoryBus(MemoryBus.hub()), listen: undefined, pending: undefined } as never,
      new Registry(),
    );
    expect(bare.listen).toBeUndefined();
    await server.close();
  });
});
