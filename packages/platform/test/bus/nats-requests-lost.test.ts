/**
 * Requests in flight that are known lost fail at once with a 503 and Retry-After instead of waiting
 * out their timeout (nats-request-watch.ts): when the requester's connection to NATS drops, and
 * when the process holding the request is killed while NATS stays up. A process that holds a
 * request long but lives, even one too busy to answer pings for a while, is not taken for dead.
 * The responders are real processes (fixtures/responder.ts), killed with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ok, TimeoutError, UnavailableError } from '@patchbay/contracts';
import { ResponderLostError } from '../../src/bus/bus-errors';
import { NatsBus } from '../../src/bus/nats-bus';
import { startNatsServer, type NatsServerHandle } from '../../src/testing/nats-server';
import { deferred, pause } from './bus-test-kit';

const TSX = path.resolve(__dirname, '../../../../node_modules/.bin/tsx');
const RESPONDER = path.join(__dirname, 'fixtures/responder.ts');
const REQUEST_TIMEOUT_MS = 30_000;

let js: NatsServerHandle;
const buses: NatsBus[] = [];
const children: ChildProcess[] = [];
beforeAll(async () => {
  js = await startNatsServer();
});
afterAll(async () => {
  // Every responder gone, and its pipe closed, before the next test file runs in this worker.
  await Promise.all(
    children.map(async (c) => {
      const closed = new Promise((r) => c.once('close', r));
      if (c.exitCode === null && c.signalCode === null) process.kill(-c.pid!, 'SIGKILL');
      else if (c.stdout?.closed) return;
      await closed;
    }),
  );
  await Promise.all(buses.map((b) => b.close()));
  await js?.stop();
});

const bus = async (url: string) => {
  const b = await NatsBus.connect({ url, name: 'lost-test' });
  buses.push(b);
  return b;
};

/** Starts the responder process; resolves once it serves, with a promise of its first request. */
async function responder(url: string, subject: string, mode: 'hang' | 'busy') {
  // Its own process group: tsx runs the script in a child, and SIGKILL must reach both.
  const child = spawn(TSX, [RESPONDER, url, subject, mode], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const ready = deferred();
  const got = deferred();
  child.stdout!.on('data', (b: Buffer) => {
    if (b.toString().includes('ready')) ready.resolve();
    if (b.toString().includes('got')) got.resolve();
  });
  await ready.promise;
  return { child, got: got.promise };
}

const settle = async (p: Promise<unknown>) => {
  const started = Date.now();
  const outcome = await p.then(
    (v) => ({ value: v, err: undefined }),
    (err: unknown) => ({ value: undefined, err }),
  );
  return { ...outcome, ms: Date.now() - started };
};

test('the process holding a request is killed: the request fails with a 503 within seconds', async () => {
  const subject = `svc.lost${Date.now()}.thing.get`;
  const { child, got } = await responder(js.url, subject, 'hang');
  const client = await bus(js.url);
  const request = settle(client.request(subject, {}, { timeoutMs: REQUEST_TIMEOUT_MS }));
  await got;
  // Past the second after which the holder says who it is (a message on the bus only, nothing to watch).
  await pause(2000);
  const killedAt = Date.now();
  process.kill(-child.pid!, 'SIGKILL');
  const { err } = await request;
  expect(err).toBeInstanceOf(ResponderLostError);
  expect((err as UnavailableError).status).toBe(503);
  expect((err as UnavailableError).retryAfterSeconds).toBe(1);
  expect((err as Error).message).toMatch(new RegExp(`request ${subject.replace(/\./g, '\\.')}: .*went away`));
  // One ping period after the death, not the 30 s timeout (generous for a loaded machine).
  expect(Date.now() - killedAt).toBeLessThan(REQUEST_TIMEOUT_MS / 3);
}, 60_000);

test('a holder too busy to answer pings for a while is alive: its request is answered', async () => {
  const subject = `svc.busy${Date.now()}.thing.get`;
  await responder(js.url, subject, 'busy');
  const client = await bus(js.url);
  const { value, err } = await settle(client.request(subject, {}, { timeoutMs: REQUEST_TIMEOUT_MS }));
  expect(err).toBeUndefined();
  expect(value).toEqual(ok('done'));
}, 60_000);

test('NATS stops while requests wait: each fails at once with a 503, not its timeout', async () => {
  const [svc, client] = [await bus(js.url), await bus(js.url)];
  const subject = `svc.natsgone${Date.now()}.thing.get`;
  const arrived = deferred();
  // Held until the end of the test, so the service's bus can close (it waits for its handlers).
  const release = deferred();
  let held = 0;
  await svc.serve(subject, 'natsgone', async () => {
    if (++held === 3) arrived.resolve();
    await release.promise;
    return ok('late');
  });
  const requests = [1, 2, 3].map(() => settle(client.request(subject, {}, { timeoutMs: REQUEST_TIMEOUT_MS })));
  await arrived.promise;
  const down = js.restart({ downMs: 1000 });
  const outcomes = await Promise.all(requests);
  for (const { err, ms } of outcomes) {
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err).not.toBeInstanceOf(TimeoutError);
    expect((err as UnavailableError).retryAfterSeconds).toBe(1);
    expect((err as Error).message).toMatch(/connection to the message bus was lost/);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS / 3);
  }
  await down;
  release.resolve();
}, 60_000);
