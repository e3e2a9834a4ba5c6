import { TimeoutError, UnavailableError, UnprocessableError, ok } from '@patchbay/contracts';
import { BusPayloadError } from '../../src/bus/bus-errors';
import { CircuitBreakerBus } from '../../src/bus/circuit-breaker-bus';
import { MemoryBus } from '../../src/bus/memory-bus';
import { NatsBus } from '../../src/bus/nats-bus';
import { startNatsServer } from '../../src/testing/nats-server';
import { bigText } from './bus-contract-large';
import { deferred, eventually, pause } from './bus-test-kit';

let inner: MemoryBus;
let bus: CircuitBreakerBus;
let answering = false;
/** Handlers left hanging, released at the end so the bus can close. */
const hanging: Array<() => void> = [];

beforeEach(async () => {
  inner = new MemoryBus(MemoryBus.hub());
  bus = new CircuitBreakerBus(inner, { failures: 2, openMs: 300 });
  answering = false;
  // A service that does not answer until told to (as when the bus or the service is down).
  await inner.serve('svc.slow.thing.get', 'slow', () =>
    answering ? Promise.resolve(ok({ fine: true })) : new Promise((r) => hanging.push(() => r(ok({ late: true })))),
  );
  await inner.serve('svc.other.thing.get', 'other', async () => ok({ other: true }));
});
afterEach(async () => {
  for (const release of hanging.splice(0)) release();
  await inner.close();
});

const ask = (subject = 'svc.slow.thing.get') => bus.request(subject, {}, { timeoutMs: 100 });
const timed = async (p: Promise<unknown>) => {
  const t = Date.now();
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  return { err, ms: Date.now() - t };
};

test(
  "after two timeouts in a row the service's calls fail fast with a 503 " +
    'and Retry-After; other services are untouched',
  async () => {
    for (let i = 0; i < 2; i++) expect((await timed(ask())).err).toBeInstanceOf(TimeoutError);
    const fast = await timed(ask());
    expect(fast.err).toBeInstanceOf(UnavailableError);
    // Refused without asking: the service holds only the two calls that timed out, and no timeout was waited out.
    expect(hanging).toHaveLength(2);
    expect(fast.ms).toBeLessThan(100);
    expect((fast.err as UnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await expect(ask('svc.other.thing.get')).resolves.toMatchObject({ status: 200 });
  },
);

test(
  'once open, one trial goes through after openMs: an answer closes the ' + 'circuit, another timeout opens it again',
  async () => {
    for (let i = 0; i < 2; i++) await ask().catch(() => undefined);
    await pause(320); // openMs (300) runs out: asking to see would itself be the trial
    // The trial times out: open again at once (no second count needed), and calls fail fast.
    expect((await timed(ask())).err).toBeInstanceOf(TimeoutError);
    expect((await timed(ask())).err).toBeInstanceOf(UnavailableError);
    await pause(320); // openMs again
    answering = true;
    const trial = ask();
    // While the trial is out, the others are still refused.
    expect((await timed(ask())).err).toBeInstanceOf(UnavailableError);
    await expect(trial).resolves.toMatchObject({ status: 200 });
    await expect(ask()).resolves.toMatchObject({ status: 200 });
  },
);

test('a timeout among answers does not open it: only timeouts in a row count', async () => {
  await ask().catch(() => undefined);
  answering = true;
  await expect(ask()).resolves.toMatchObject({ status: 200 });
  answering = false;
  expect((await timed(ask())).err).toBeInstanceOf(TimeoutError);
  answering = true;
  await expect(ask()).resolves.toMatchObject({ status: 200 });
});

test('application errors never open it: a service answering 422 or 500 is a service that answers', async () => {
  let calls = 0;
  await inner.serve('svc.failing.thing.get', 'failing', async () => {
    calls += 1;
    if (calls % 2) throw UnprocessableError.field('name', 'bad');
    throw new Error('boom');
  });
  for (let i = 0; i < 6; i++) expect((await bus.request('svc.failing.thing.get', {})).status).toBe(i % 2 ? 500 : 422);
  expect(calls).toBe(6);
});

test(
  'payload errors never open it: a reply too large for the bus fails ' + 'each call at once, and only that call',
  async () => {
    const hub = MemoryBus.hub({ maxPayload: 1024 * 1024 });
    const [server, client] = [new MemoryBus(hub), new MemoryBus(hub, { maxMessageBytes: 2 * 1024 * 1024 })];
    const guarded = new CircuitBreakerBus(client, { failures: 2, openMs: 60_000 });
    const big = bigText(3 * 1024 * 1024);
    await server.serve('svc.big.thing.get', 'big', async (p) => ok(p === 'small' ? 'fine' : big));
    try {
      for (let i = 0; i < 4; i++)
        await expect(guarded.request('svc.big.thing.get', 'large')).rejects.toThrow(BusPayloadError);
      await expect(guarded.request('svc.big.thing.get', 'small')).resolves.toEqual(ok('fine'));
    } finally {
      await Promise.all([server.close(), client.close()]);
    }
  },
);

test('nobody serving the subject counts as not answering: two in a row open it', async () => {
  const gone = () => bus.request('svc.gone.thing.get', {});
  for (let i = 0; i < 2; i++) await expect(gone()).rejects.toThrow(/no service answers/);
  const refused = await timed(gone());
  expect(refused.err).toBeInstanceOf(UnavailableError);
  expect((refused.err as Error).message).toMatch(/gone is not answering/);
});

test('a timeout while the service answers other calls is a slow call: it does not count', async () => {
  const releases: Array<() => void> = [];
  await inner.serve('svc.mixed.thing.get', 'mixed', (p) =>
    p === 'slow' ? new Promise((r) => releases.push(() => r(ok('late')))) : Promise.resolve(ok('quick')),
  );
  // Two slow calls at once (one partner's slow third-party endpoint), while others are answered.
  const slow = [1, 2].map(() => bus.request('svc.mixed.thing.get', 'slow', { timeoutMs: 150 }));
  await expect(bus.request('svc.mixed.thing.get', 'quick')).resolves.toEqual(ok('quick'));
  for (const s of slow) await expect(s).rejects.toThrow(TimeoutError);
  for (const release of releases) release();
  await expect(bus.request('svc.mixed.thing.get', 'quick')).resolves.toEqual(ok('quick'));
});

test(
  'NATS gone: calls fail at once with 503 and Retry-After, before any ' + 'timeout; NATS back: they go through',
  async () => {
    const server = await startNatsServer();
    const [svc, client] = [await NatsBus.connect({ url: server.url }), await NatsBus.connect({ url: server.url })];
    const guarded = new CircuitBreakerBus(client, { failures: 2, openMs: 2000 });
    try {
      await svc.serve('svc.natsdown.thing.get', 'natsdown', async () => ok('up'));
      await expect(guarded.request('svc.natsdown.thing.get', {})).resolves.toEqual(ok('up'));
      const lost = deferred();
      client.onConnection((up) => {
        if (!up) lost.resolve();
      });
      const down = server.restart({ downMs: 3000 });
      // The connection notices the server is gone as its socket closes; from then on no call waits.
      await lost.promise;
      for (let i = 0; i < 3; i++) {
        const r = await timed(guarded.request('svc.natsdown.thing.get', {}, { timeoutMs: 5000 }));
        expect(r.err).toBeInstanceOf(UnavailableError);
        expect(r.ms).toBeLessThan(200);
        expect((r.err as UnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect((r.err as Error).message).toMatch(/natsdown is not answering \(the message bus is disconnected\)/);
      }
      await down;
      await eventually(
        async () => expect(await guarded.request('svc.natsdown.thing.get', {}, { timeoutMs: 1000 })).toEqual(ok('up')),
        15_000,
      );
    } finally {
      await Promise.all([svc.close(), guarded.close()]);
      await server.stop();
    }
  },
  30_000,
);

describe('callers (the partner a gateway call is made for)', () => {
  const askAs = (caller: string) => bus.request('svc.slow.thing.get', {}, { timeoutMs: 100, caller });

  test("one caller's timeouts open its own circuit only: every other caller is still served", async () => {
    for (let i = 0; i < 2; i++) expect((await timed(askAs('A'))).err).toBeInstanceOf(TimeoutError);
    const refused = await timed(askAs('A'));
    expect(refused.err).toBeInstanceOf(UnavailableError);
    // Refused without asking: the service holds only A's two calls that timed out, and no timeout was waited out.
    expect(hanging).toHaveLength(2);
    expect(refused.ms).toBeLessThan(100);
    expect((refused.err as UnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((refused.err as Error).message).toMatch(/slow did not answer this partner's last calls in time/);
    answering = true;
    await expect(askAs('B')).resolves.toMatchObject({ status: 200 });
    await expect(ask()).resolves.toMatchObject({ status: 200 });
    // A's own circuit lets a trial through after openMs; an answer closes it.
    await pause(320); // openMs (300) runs out: asking to see would itself be the trial
    await expect(askAs('A')).resolves.toMatchObject({ status: 200 });
  });

  test("timeouts of two callers in a row open the service's circuit for everyone", async () => {
    for (const caller of ['A', 'B', 'A']) expect((await timed(askAs(caller))).err).toBeInstanceOf(TimeoutError);
    const refused = await timed(askAs('C'));
    expect(refused.err).toBeInstanceOf(UnavailableError);
    expect((refused.err as Error).message).toMatch(/slow is not answering/);
  });

  test('a busy service answering 429 or 503 with Retry-After is answering: no circuit opens', async () => {
    let calls = 0;
    await inner.serve('svc.busy.thing.get', 'busy', async () => {
      calls += 1;
      return {
        status: calls % 2 ? 429 : 503,
        error: { message: 'busy', errors: [] },
        retry_after: 1,
      };
    });
    for (let i = 0; i < 6; i++) {
      const reply = await bus.request('svc.busy.thing.get', {}, { caller: 'A' });
      expect(reply).toMatchObject({ status: i % 2 ? 503 : 429, retry_after: 1 });
    }
    expect(calls).toBe(6);
  });
});
