/**
 * While the bus is down, API calls fail fast: after the first calls time out, each service's
 * circuit in the gateway opens and further calls are answered 503 (with Retry-After) at once,
 * instead of each hanging for the whole bus timeout. Once NATS is back, calls work again by
 * themselves (a trial call closes each circuit).
 */
import request from 'supertest';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { until } from '../support/poll';

const BUS_TIMEOUT_MS = 3000;
let inst: PatchbayInstance;
afterAll(async () => {
  await inst?.stop();
});

test('NATS stopped: the first calls time out, the rest get a fast 503; NATS back: calls succeed again', async () => {
  inst = await startPatchbay('distributed', { BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS), AUTH_CACHE_MS: '60000' });
  const call = async () => {
    const started = Date.now();
    const res = await request(inst.origin)
      .get('/core/v2/countries?limit=1')
      .set('Authorization', `Bearer ${inst.token}`);
    return { status: res.status, ms: Date.now() - started, retryAfter: res.headers['retry-after'], body: res.body };
  };
  expect((await call()).status).toBe(200); // the token is now cached: the calls below reach the records service
  const down = inst.restartNats(4 * BUS_TIMEOUT_MS);
  await new Promise((r) => setTimeout(r, 300));
  // The first calls wait out the bus timeout (504, or 503 if the client sees the connection gone).
  const first = await Promise.all([call(), call()]);
  for (const r of first) expect([503, 504]).toContain(r.status);
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
