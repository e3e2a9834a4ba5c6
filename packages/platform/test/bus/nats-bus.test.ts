import { ok } from '@patchbay/contracts';
import { NatsBus } from '../../src/bus/nats-bus';
import { startNatsServer, type NatsServerHandle } from '../../src/testing/nats-server';
import { describeBusContract } from './bus-contract';
import { eventually } from './bus-test-kit';

// A private nats-server (free port, temporary JetStream store) for the whole contract suite.
describeBusContract('NatsBus', async () => {
  const server = await startNatsServer();
  return {
    connect: (opts) => NatsBus.connect({ url: server.url, name: 'bus-contract', logger: opts?.logger }),
    teardown: () => server.stop(),
  };
});

describe('NatsBus across a nats-server restart', () => {
  let server: NatsServerHandle;
  const buses: NatsBus[] = [];
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await server.stop();
  });

  test('requests, event subscribers and workers carry on without being recreated', async () => {
    const [svc, client] = [await NatsBus.connect({ url: server.url }), await NatsBus.connect({ url: server.url })];
    buses.push(svc, client);
    const [events, jobs]: unknown[][] = [[], []];
    await svc.serve('svc.restart.echo.get', 'echo', async (p) => ok(p));
    await svc.subscribe('evt.restart.*', 'restart', async (p) => {
      events.push(p);
    });
    await svc.work('job.restart.run', 'runners', async (p) => {
      jobs.push(p);
    });
    await client.publish('evt.restart.before', 1);
    await eventually(() => expect(events).toEqual([1]));

    await server.restart({ downMs: 300 });

    await eventually(
      async () => expect(await client.request('svc.restart.echo.get', 'hi', { timeoutMs: 500 })).toEqual(ok('hi')),
      15_000,
    );
    // Retried publishes carry a msgId, so a retry after a lost ack cannot duplicate.
    await eventually(() => client.publish('evt.restart.after', 2, { msgId: 'after-2' }), 10_000);
    await eventually(() => client.enqueue('job.restart.run', 3, { msgId: 'job-3' }), 10_000);
    await eventually(() => expect(events).toEqual([1, 2]), 15_000);
    await eventually(() => expect(jobs).toEqual([3]), 15_000);
  });
});
