/**
 * A reply the bus cannot carry is an error at once, never a timeout, and never opens the circuit:
 * with BUS_MAX_MESSAGE_BYTES at its minimum (1 MiB), a page of 1,000 records (about 2 MB) is
 * answered 500 naming the cause well inside the bus timeout, again and again, while every smaller
 * call of the same service still gets its 200. (Before: the records service logged
 * MAX_PAYLOAD_EXCEEDED, the gateway waited out the timeout, 504, then 503 for every records call.)
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';

let inst: PatchbayInstance;
afterAll(async () => {
  await inst?.stop();
});

test('a page over BUS_MAX_MESSAGE_BYTES: 500 naming it at once; the records circuit stays closed', async () => {
  inst = await startPatchbay('distributed', { BUS_MAX_MESSAGE_BYTES: String(1024 * 1024), BUS_TIMEOUT_MS: '10000' });
  const auth = ['Authorization', `Bearer ${inst.token}`] as const;
  const records = Array.from({ length: 1000 }, (_, i) => ({
    dr_sid: randomUUID(),
    date_start: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    date_stop: new Date(Date.UTC(2025, 0, 1) + i * 60_000 + 30_000).toISOString(),
    price: '0.01',
    user_data: `bound ${i} ${'u'.repeat(1500)}`,
  }));
  const ingested = await request(inst.origin)
    .post('/core/v2/calls/call_drs')
    .set(...auth)
    .send(records);
  expect(ingested.status).toBe(200);
  expect(ingested.body).toMatchObject({ stored: 1000 });
  for (let i = 0; i < 4; i++) {
    const started = Date.now();
    const big = await request(inst.origin)
      .get('/core/v2/calls/call_drs?limit=1000')
      .set(...auth);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(big.status).toBe(500);
    expect(big.body.message).toMatch(/reply on svc\.records\..* is \d+ bytes, more than .*BUS_MAX_MESSAGE_BYTES/);
    const small = await request(inst.origin)
      .get('/core/v2/calls/call_drs?limit=100')
      .set(...auth);
    expect(small.status).toBe(200);
    expect(small.body.count).toBe(100);
  }
}, 120_000);
