/**
 * A record export survives a kill -9 of every process of its instance in the middle of writing:
 * after the restart it is run again from the start (EXPORT_LEASE_MS short here), and ends with
 * exactly one complete file (every record, once, in order) — or failed with none. Never two files,
 * never a partial one.
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import type { ApiJson } from '../support/api-json';
import { until } from '../support/poll';

let inst: PatchbayInstance | undefined;
afterAll(async () => {
  await inst?.stop();
});

const N = 60_000;
const record = (i: number) =>
  JSON.stringify({
    dr_sid: randomUUID(),
    date_start: new Date(Date.UTC(2024, 2, 1) + i * 1000).toISOString(),
    date_stop: new Date(Date.UTC(2024, 2, 1) + i * 1000 + 60_000).toISOString(),
    price: '0.01',
    number_src: `1555${String(i).padStart(7, '0')}`,
  });

test('kill -9 mid-export: after the restart, exactly one complete file or a failed export with none', async () => {
  inst = await startPatchbay(mode(), { EXPORT_LEASE_MS: '2000' });
  const api = () => request(inst!.origin);
  const auth = () => ['Authorization', `Bearer ${inst!.token}`] as const;
  for (let from = 0; from < N; from += 20_000) {
    const res = await api()
      .post('/core/v2/calls/call_drs')
      .set(...auth())
      .set('Content-Type', 'application/x-ndjson')
      .send(Array.from({ length: 20_000 }, (_, i) => record(from + i)).join('\n'));
    expect(res.body).toMatchObject({ stored: 20_000 });
  }
  const name = `crash-${randomUUID()}.ndjson.gz`;
  const created = await api()
    .post('/core/v2/calls/call_drs/exports')
    .set(...auth())
    .send({ name });
  expect(created.status).toBe(202);
  const sid = String(created.body.export_sid);
  const container = String(created.body.container_sid);

  // Killed while it writes (some records out, not all), or — on a very fast machine — just after.
  await until(
    'the export to be writing',
    60_000,
    async () => {
      const r = await api()
        .get(`/core/v2/calls/call_drs/exports/${sid}`)
        .set(...auth());
      return r.body.record_count > 0 || r.body.status === 'done' ? true : undefined;
    },
    { everyMs: 10 },
  );
  await inst.kill();
  inst = await inst.restart();

  const ended: ApiJson = await until(
    'the export to end after the restart',
    120_000,
    async () => {
      const r = await api()
        .get(`/core/v2/calls/call_drs/exports/${sid}`)
        .set(...auth());
      return ['done', 'failed'].includes(r.body.status) ? (r.body as ApiJson) : undefined;
    },
    { ignoreErrors: true },
  );
  const files = await api()
    .get('/core/v2/storage/files')
    .query({ filter: `container_sid eq "${container}" and name eq "${name}"`, limit: 100 })
    .set(...auth());
  expect(files.status).toBe(200);
  if (ended.status === 'failed') {
    expect(files.body.items).toEqual([]);
    return;
  }
  expect(ended).toMatchObject({ status: 'done', record_count: N });
  expect(files.body.items.map((f: ApiJson) => f.file_sid)).toEqual([ended.file_sid]);
  const data = await api()
    .get(`/core/v2/storage/files/${ended.file_sid}/data`)
    .set(...auth())
    .buffer(true)
    .parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });
  expect(data.status).toBe(200);
  const lines = gunzipSync(data.body as Buffer)
    .toString('utf8')
    .trim()
    .split('\n');
  expect(lines).toHaveLength(N);
  const srcs = lines.map((l) => String(JSON.parse(l).number_src));
  expect(srcs).toEqual(Array.from({ length: N }, (_, i) => `1555${String(i).padStart(7, '0')}`));
}, 300_000);
