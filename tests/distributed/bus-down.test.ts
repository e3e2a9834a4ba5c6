/**
 * While the bus is down, API calls fail fast, and so do the calls that were waiting when it went:
 * the gateway's connection to NATS drops, every request in flight is answered 503 with Retry-After
 * at once (not after the bus timeout), and every call after it is refused the same way by the
 * gateway's circuit breaker, without waiting. Once NATS is back, calls work again by themselves.
 */
import request from 'supertest';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { until } from '../support/poll';
import { startSilentServer, type TcpListener } from '../support/tcp-listeners';

const BUS_TIMEOUT_MS = 10_000;
let inst: PatchbayInstance;
let silent: TcpListener;
beforeAll(async () => {
  [inst, silent] = await Promise.all([
    startPatchbay('distributed', { BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS), AUTH_CACHE_MS: '60000' }),
    startSilentServer(),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([inst?.stop(), silent?.stop()]);
});

test('NATS stopped: a call in flight and the calls after it get a fast 503; NATS back: calls succeed', async () => {
  const call = async () => {
    const started = Date.now();
    const res = await request(inst.origin)
      .get('/core/v2/countries?limit=1')
      .set('Authorization', `Bearer ${inst.token}`);
    return { status: res.status, ms: Date.now() - started, retryAfter: res.headers['retry-after'], body: res.body };
  };
  expect((await call()).status).toBe(200); // the token is now cached: the calls below reach the records service
  // A call storage holds (it probes an endpoint that never answers, for up to 60% of the bus timeout).
  const held = request(inst.origin)
    .post('/core/v2/storage/containers')
    .set('Authorization', `Bearer ${inst.token}`)
    .send({ type: 'aws_s3', external_attributes: { bucket: 'held', endpoint: `http://127.0.0.1:${silent.port}` } })
    .then((res) => ({ res, at: Date.now() }));
  await until('storage to be holding the call', 10_000, () => (silent.connections() > 0 ? true : undefined));
  const stoppedAt = Date.now();
  const down = inst.restartNats(4000);
  const { res, at } = await held;
  expect(res.status).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.body.message).toMatch(/connection to the message bus was lost/);
  // As the connection drops, not after the bus timeout (10 s) or storage's own deadline (6 s).
  expect(at - stoppedAt).toBeLessThan(BUS_TIMEOUT_MS / 2);
  // From now on: refused at once, with the error body and Retry-After.
  const fast = [];
  for (let i = 0; i < 10; i++) fast.push(await call());
  for (const r of fast) {
    expect(r.status).toBe(503);
    expect(r.ms).toBeLessThan(500);
    expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(r.body).toMatchObject({ message: expect.stringContaining('records'), errors: [] });
  }
  await down;
  await until(
    'calls to work again after NATS is back',
    30_000,
    async () => ((await call()).status === 200 ? true : undefined),
    { ignoreErrors: true, everyMs: 250 },
  );
}, 90_000);
