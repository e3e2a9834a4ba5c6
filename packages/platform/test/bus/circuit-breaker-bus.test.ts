import { TimeoutError, UnavailableError, ok } from '@patchbay/contracts';
import { CircuitBreakerBus } from '../../src/bus/circuit-breaker-bus';
import { MemoryBus } from '../../src/bus/memory-bus';

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

test("after two timeouts in a row the service's calls fail fast with a 503 and Retry-After; other services are untouched", async () => {
  for (let i = 0; i < 2; i++) expect((await timed(ask())).err).toBeInstanceOf(TimeoutError);
  const fast = await timed(ask());
  expect(fast.err).toBeInstanceOf(UnavailableError);
  expect(fast.ms).toBeLessThan(50);
  expect((fast.err as UnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  await expect(ask('svc.other.thing.get')).resolves.toMatchObject({ status: 200 });
});

test('once open, one trial goes through after openMs: an answer closes the circuit, another timeout opens it again', async () => {
  for (let i = 0; i < 2; i++) await ask().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 320));
  // The trial times out: open again at once (no second count needed), and calls fail fast.
  expect((await timed(ask())).err).toBeInstanceOf(TimeoutError);
  expect((await timed(ask())).err).toBeInstanceOf(UnavailableError);
  await new Promise((r) => setTimeout(r, 320));
  answering = true;
  const trial = ask();
  // While the trial is out, the others are still refused.
  expect((await timed(ask())).err).toBeInstanceOf(UnavailableError);
  await expect(trial).resolves.toMatchObject({ status: 200 });
  await expect(ask()).resolves.toMatchObject({ status: 200 });
});

test('a timeout among answers does not open it: only timeouts in a row count', async () => {
  await ask().catch(() => undefined);
  answering = true;
  await expect(ask()).resolves.toMatchObject({ status: 200 });
  answering = false;
  expect((await timed(ask())).err).toBeInstanceOf(TimeoutError);
  answering = true;
  await expect(ask()).resolves.toMatchObject({ status: 200 });
});
