/**
 * Storage usage over time (docs/interface-notes.md, Usage): the threshold-worker keeps one snapshot of
 * each container's counters per UTC day, rewritten by every tick of the day, and
 * `GET /storage/containers/{sid}/usage` answers them; another partner's container is a 404. On a
 * Patchbay of its own that ticks every second.
 */
import request from 'supertest';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { until } from '../support/poll';

let inst: PatchbayInstance;
const api = () => request(inst.origin);

interface Partner {
  auth: [string, string];
}

let n = 0;
async function partner(): Promise<Partner> {
  const login = `usage${Date.now().toString(36)}${(n++).toString(36)}`;
  const password = 'partner-password-1';
  const created = await api()
    .post('/core/v2/partners')
    .set('Authorization', `Bearer ${inst.token}`)
    .send({ name: `Usage ${login}`, login, password });
  expect(created.status).toBe(200);
  const tok = await api()
    .post('/core/v2/oauth/token')
    .type('form')
    .send({ grant_type: 'password', username: login, password });
  expect(tok.status).toBe(200);
  return { auth: ['Authorization', `Bearer ${tok.body.access_token}`] };
}

const usage = (p: Partner, sid: string, query = '') =>
  api()
    .get(`/core/v2/storage/containers/${sid}/usage${query}`)
    .set(...p.auth);

async function upload(p: Partner, containerSid: string, bytes: number): Promise<string> {
  const res = await api()
    .post(`/core/v2/storage/files?container_sid=${containerSid}&name=f${bytes}.bin`)
    .set(...p.auth)
    .set('Content-Type', 'application/octet-stream')
    .send(Buffer.alloc(bytes, 65));
  expect(res.status).toBe(201);
  return res.body.file_sid;
}

/** Polls until today's snapshot of the container holds exactly these counters. */
const todayHolds = (p: Partner, sid: string, files: number, bytes: number) =>
  until(`the snapshot of ${sid} at ${files} files, ${bytes} bytes`, 30_000, async () => {
    const res = await usage(p, sid);
    const today = new Date().toISOString().slice(0, 10);
    const item = res.body.items?.find((i: { date: string }) => i.date === today);
    return item?.files === files && item?.bytes === bytes ? res : undefined;
  });

let a: Partner;
let b: Partner;
let sid: string;

beforeAll(async () => {
  inst = await startPatchbay(mode(), { THRESHOLD_SWEEP_INTERVAL: '1' });
  [a, b] = await Promise.all([partner(), partner()]);
  const c = await api()
    .post('/core/v2/storage/containers')
    .set(...a.auth)
    .send({ name: 'usage' });
  expect(c.status).toBe(200);
  sid = c.body.container_sid;
}, 120_000);
afterAll(async () => {
  await inst?.stop();
});

test("a day's snapshot follows the container's counters through the day", async () => {
  await upload(a, sid, 10);
  const second = await upload(a, sid, 20);
  const res = await todayHolds(a, sid, 2, 30);
  const today = new Date().toISOString().slice(0, 10);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ container_sid: sid, to: today });
  expect(res.body.items).toEqual([{ date: today, files: 2, bytes: 30 }]);

  expect(
    (
      await api()
        .delete(`/core/v2/storage/files/${second}`)
        .set(...a.auth)
    ).status,
  ).toBe(204);
  await todayHolds(a, sid, 1, 10);
});

test('a range without snapshots is empty; the range is checked', async () => {
  const old = await usage(a, sid, '?from=2020-01-01&to=2020-01-31');
  expect(old.status).toBe(200);
  expect(old.body).toEqual({ container_sid: sid, from: '2020-01-01', to: '2020-01-31', items: [] });
  for (const [query, field] of [
    ['?from=yesterday', 'from'],
    ['?to=2020-02-30x', 'to'],
    ['?from=2020-02-01&to=2020-01-01', 'from'],
    ['?from=2020-01-01&to=2021-06-01', 'from'],
  ]) {
    const res = await usage(a, sid, query);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  }
});

test("another partner's container is a 404, as an unknown one", async () => {
  expect((await usage(b, sid)).status).toBe(404);
  expect((await usage(a, 'no-such-container')).status).toBe(404);
});
