/**
 * Bulk ingest on its own instance: a body of several batches (each one transaction of the records
 * service) is stored whole and the answer counts every record; and after a kill -9 in the middle of an
 * ingest, every record of every acknowledged request is there after the restart.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { INGEST_BATCH_RECORDS } from '@patchbay/contracts';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';

let inst: PatchbayInstance | undefined;
afterAll(async () => {
  await inst?.stop();
});

const record = (i: number) =>
  JSON.stringify({
    dr_sid: randomUUID(),
    date_start: new Date(Date.UTC(2024, 2, 1) + i * 1000).toISOString(),
    date_stop: new Date(Date.UTC(2024, 2, 1) + i * 1000 + 60_000).toISOString(),
    price: '0.01',
  });
const body = (n: number, from = 0) => Array.from({ length: n }, (_, i) => record(from + i)).join('\n');

test(
  'a body of several transactions is stored whole; after a kill -9 ' + 'mid-ingest every acknowledged record is there',
  async () => {
    inst = await startPatchbay(mode());
    const auth = ['Authorization', `Bearer ${inst.token}`] as const;
    const ingest = (text: string) =>
      request(inst!.origin)
        .post('/core/v2/calls/call_drs')
        .set(...auth)
        .set('Content-Type', 'application/x-ndjson')
        .send(text);

    const acknowledged: string[] = [];
    const big = body(3 * INGEST_BATCH_RECORDS + 250);
    const first = await ingest(big);
    expect(first.status).toBe(200);
    const n = 3 * INGEST_BATCH_RECORDS + 250;
    expect(first.body).toMatchObject({ received: n, stored: n, duplicates: 0, rejected: 0, complete: true });
    acknowledged.push(big);
    for (let k = 0; k < 3; k++) {
      const text = body(800, 10_000 * (k + 1));
      const res = await ingest(text);
      expect(res.body).toMatchObject({ stored: 800, complete: true });
      acknowledged.push(text);
    }

    // A slow ingest in flight: batches are stored while the body streams in; then the process dies.
    const slow = http.request(`${inst.origin}/core/v2/calls/call_drs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${inst.token}`, 'Content-Type': 'application/x-ndjson' },
    });
    slow.on('error', () => undefined);
    for (let k = 0; k < 6; k++) {
      slow.write(`${body(INGEST_BATCH_RECORDS, 100_000 + k * INGEST_BATCH_RECORDS)}\n`);
      await new Promise((r) => setTimeout(r, 100)); // a slow client: batches stored while the body still comes
    }
    await inst.kill();
    slow.destroy();
    inst = await inst.restart();

    // Every acknowledged record is stored: sent again, each one is a duplicate.
    for (const text of acknowledged) {
      const again = await request(inst.origin)
        .post('/core/v2/calls/call_drs')
        .set('Authorization', `Bearer ${inst.token}`)
        .set('Content-Type', 'application/x-ndjson')
        .send(text);
      const n = text.split('\n').length;
      expect(again.body).toMatchObject({ received: n, stored: 0, duplicates: n, complete: true });
    }
  },
  240_000,
);
