/**
 * Idempotency keys (docs/interface-notes.md, Idempotency keys): a write sent again with its
 * `Idempotency-Key` gets the first answer again — status, body, `Idempotent-Replayed: true` — and
 * nothing runs twice; the key with another request is a 422, a repeat while the first still runs a
 * 409 with Retry-After, both naming the header; keys are per partner; uploads (raw, multipart, media
 * recordings) and bulk ingest are replayed too, their bodies compared as they stream.
 */
import nodeHttp from 'node:http';
import { randomUUID } from 'node:crypto';
import { INGEST_BATCH_RECORDS } from '@patchbay/contracts';
import { API, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { tone, uniqueTone } from '../support/media';
import { defaultContainer, endpoint, record } from '../support/media-plane';
import { createContainer, listFiles, uploadMultipart, uploadRaw } from '../support/storage';
import { until } from '../support/poll';

let p: TestPartner;
let other: TestPartner;
beforeAll(async () => {
  [p, other] = await Promise.all([
    newPartner({ attributes: { max_containers: 20 } }),
    newPartner({ attributes: { max_containers: 20 } }),
  ]);
});

const KEY = 'Idempotency-Key';
const REPLAYED = 'idempotent-replayed';
const newKey = () => `test-${randomUUID()}`;

const createKeyed = (who: TestPartner, key: string, body: unknown, query = '') =>
  http()
    .post(`${API}/storage/containers${query}`)
    .set(...who.auth)
    .set(KEY, key)
    .send(body as object);

const containersNamed = async (who: TestPartner, name: string) =>
  (
    await http()
      .get(`${API}/storage/containers`)
      .query({ filter: `name eq "${name}"` })
      .set(...who.auth)
  ).body.count;

const expectKeyError = (res: { status: number; body: unknown }, status: number) => {
  expect(res.status).toBe(status);
  expectErrorBody(res.body);
  expect((res.body as { errors: Array<{ field: string }> }).errors[0].field).toBe(KEY);
};

test('a create with a key runs once: a repeat answers the same status and body, marked replayed', async () => {
  const key = newKey();
  const name = `idem-${randomUUID()}`;
  const first = await createKeyed(p, key, { name, string_key_1: 'a' });
  expect(first.status).toBe(200);
  expect(first.headers[REPLAYED]).toBeUndefined();
  // The same JSON with its keys in another order and other spacing is the same request.
  const again = await http()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .set(KEY, key)
    .set('Content-Type', 'application/json')
    .send(`{ "string_key_1" : "a",\n "name": "${name}" }`);
  expect(again.status).toBe(200);
  expect(again.headers[REPLAYED]).toBe('true');
  expect(again.headers['content-type']).toMatch(/^application\/json/);
  expect(again.body).toEqual(first.body);
  expect(await containersNamed(p, name)).toBe(1);
});

test('the key with another body, path, method or query is a 422 naming Idempotency-Key; nothing runs', async () => {
  const key = newKey();
  const name = `idem-${randomUUID()}`;
  const first = await createKeyed(p, key, { name });
  expect(first.status).toBe(200);
  expectKeyError(await createKeyed(p, key, { name: `${name}-other` }), 422);
  expectKeyError(await createKeyed(p, key, { name }, '?with_related=true'), 422);
  const patched = await http()
    .patch(`${API}/storage/containers/${first.body.container_sid}`)
    .set(...p.auth)
    .set(KEY, key)
    .send({ name: `${name}-renamed` });
  expectKeyError(patched, 422);
  expect(patched.body.errors[0].message).toMatch(/different request/);
  expect(await containersNamed(p, `${name}-other`)).toBe(0);
  expect(await containersNamed(p, `${name}-renamed`)).toBe(0);
  expect(await containersNamed(p, name)).toBe(1);
});

test('PATCH and DELETE replay their answers: a repeated DELETE answers 204 again, not 404', async () => {
  const c = await createContainer(p, { name: `idem-${randomUUID()}` });
  const patch = (key: string) =>
    http()
      .patch(`${API}/storage/containers/${c.container_sid}`)
      .set(...p.auth)
      .set(KEY, key)
      .send({ string_key_2: 'patched' });
  const patchKey = newKey();
  const patched = await patch(patchKey);
  expect(patched.status).toBe(200);
  const repeated = await patch(patchKey);
  expect(repeated.headers[REPLAYED]).toBe('true');
  expect(repeated.body).toEqual(patched.body);

  const del = (key: string) =>
    http()
      .delete(`${API}/storage/containers/${c.container_sid}`)
      .set(...p.auth)
      .set(KEY, key);
  const deleteKey = newKey();
  expect((await del(deleteKey)).status).toBe(204);
  const again = await del(deleteKey);
  expect(again.status).toBe(204);
  expect(again.headers[REPLAYED]).toBe('true');
  // Without the key the same DELETE runs: the container is gone.
  expect(
    (
      await http()
        .delete(`${API}/storage/containers/${c.container_sid}`)
        .set(...p.auth)
    ).status,
  ).toBe(404);
});

test("another partner's same key is its own", async () => {
  const key = newKey();
  const name = `idem-${randomUUID()}`;
  const mine = await createKeyed(p, key, { name });
  const theirs = await createKeyed(other, key, { name });
  expect(theirs.status).toBe(200);
  expect(theirs.headers[REPLAYED]).toBeUndefined();
  expect(theirs.body.container_sid).not.toBe(mine.body.container_sid);
  expect(await containersNamed(other, name)).toBe(1);
});

test('a malformed key is a 400 naming Idempotency-Key, nothing run; the token grant ignores the header', async () => {
  const name = `idem-${randomUUID()}`;
  expectKeyError(await createKeyed(p, 'k'.repeat(256), { name }), 400);
  expectKeyError(await createKeyed(p, 'café', { name }), 400);
  expect(await containersNamed(p, name)).toBe(0);
  const upload = await http()
    .post(`${API}/storage/files?container_sid=${await defaultContainer(p)}`)
    .set(...p.auth)
    .set(KEY, 'k'.repeat(256))
    .set('Content-Type', 'application/octet-stream')
    .send(Buffer.alloc(1000, 1));
  expectKeyError(upload, 400);

  const key = newKey();
  const grant = () =>
    http()
      .post(`${API}/oauth/token`)
      .set(KEY, key)
      .type('form')
      .send({ grant_type: 'password', username: p.login, password: p.password });
  const [a, b] = [await grant(), await grant()];
  expect([a.status, b.status]).toEqual([200, 200]);
  expect(b.headers[REPLAYED]).toBeUndefined();
  expect(b.body.access_token).not.toBe(a.body.access_token);
});

test('raw and multipart uploads are replayed (one file each); other bytes under the key are a 422', async () => {
  const c = await createContainer(p, { name: `idem-files-${randomUUID()}` });
  const raw = (key: string, data: Buffer, name = 'raw.bin') =>
    uploadRaw(p, { container_sid: c.container_sid, name }, data).set(KEY, key);
  const rawKey = newKey();
  const data = Buffer.alloc(200_000, 7);
  const first = await raw(rawKey, data);
  expect(first.status).toBe(201);
  const again = await raw(rawKey, data);
  expect(again.status).toBe(201);
  expect(again.headers[REPLAYED]).toBe('true');
  expect(again.body).toEqual(first.body);
  // Other bytes of the same length (read, then compared), and of another length (refused unread).
  expectKeyError(await raw(rawKey, Buffer.alloc(200_000, 8)), 422);
  expectKeyError(await raw(rawKey, Buffer.alloc(100, 7)), 422);

  // Each multipart request gets a boundary of its own: still the same request.
  const formKey = newKey();
  const form = () =>
    uploadMultipart(p, { container_sid: c.container_sid, name: 'form.bin' }, Buffer.alloc(50_000, 3)).set(KEY, formKey);
  const formFirst = await form();
  expect(formFirst.status).toBe(201);
  const formAgain = await form();
  expect(formAgain.headers[REPLAYED]).toBe('true');
  expect(formAgain.body.file_sid).toBe(formFirst.body.file_sid);

  const files = await listFiles(p, c.container_sid);
  expect(files.map((f) => f.name).sort()).toEqual(['form.bin', 'raw.bin']);
  const container = await http()
    .get(`${API}/storage/containers/${c.container_sid}`)
    .set(...p.auth);
  expect(container.body).toMatchObject({ total_files: 2, total_bytes: 250_000 });
});

test('a media-plane recording sent again with its key is stored once', async () => {
  const vm = await endpoint(p, 'voicemail');
  const key = newKey();
  const wav = uniqueTone(1);
  const send = () => record({ endpoint_sid: vm.endpoint_sid, name: 'idem.wav' }, wav).set(KEY, key);
  const first = await send();
  expect(first.status).toBe(201);
  const again = await send();
  expect(again.status).toBe(201);
  expect(again.headers[REPLAYED]).toBe('true');
  expect(again.body.file_sid).toBe(first.body.file_sid);
  const container = await defaultContainer(p);
  const named = (await listFiles(p, container)).filter((f) => f.name === 'idem.wav');
  expect(named).toHaveLength(1);
  // Without a key the operator's repeat is a new recording, as before.
  expect((await record({ endpoint_sid: vm.endpoint_sid, name: 'idem.wav' }, tone('wav', 1))).status).toBe(201);
});

describe('bulk ingest', () => {
  const call = (i: number) => ({
    dr_sid: randomUUID(),
    date_start: new Date(Date.UTC(2024, 6, 1) + i * 1000).toISOString(),
    date_stop: new Date(Date.UTC(2024, 6, 1) + i * 1000 + 60_000).toISOString(),
    price: '0.01',
  });
  const ndjson = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

  test('a repeat while the first still runs is a 409 with Retry-After; once it ends, a repeat replays it', async () => {
    const sender = await newPartner();
    const key = newKey();
    const url = new URL(`${instance().baseUrl}/calls/call_drs`);
    const req = nodeHttp.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { ...Object.fromEntries([sender.auth]), 'content-type': 'application/x-ndjson', [KEY]: key },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
    });
    const head = Array.from({ length: INGEST_BATCH_RECORDS }, (_, i) => call(i));
    const tail = [call(INGEST_BATCH_RECORDS)];
    req.write(ndjson(head));
    // The first batch is stored: the request holds its key and is still reading its body.
    await until('the first batch stored', 30_000, async () => {
      const one = await http()
        .get(`${API}/calls/call_drs/${head[0].dr_sid}`)
        .set(...sender.auth);
      return one.status === 200 ? true : undefined;
    });
    const repeat = () =>
      http()
        .post(`${API}/calls/call_drs`)
        .set(...sender.auth)
        .set(KEY, key)
        .set('Content-Type', 'application/x-ndjson')
        .send(ndjson([...head, ...tail]));
    const busy = await repeat();
    expectKeyError(busy, 409);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    req.end(ndjson(tail));
    const done = await response;
    expect(done.status).toBe(200);
    const report = JSON.parse(done.body);
    expect(report).toMatchObject({ received: INGEST_BATCH_RECORDS + 1, stored: INGEST_BATCH_RECORDS + 1 });
    const replayed = await repeat();
    expect(replayed.status).toBe(200);
    expect(replayed.headers[REPLAYED]).toBe('true');
    expect(replayed.body).toEqual(report);
    // Without a key, ingest stays idempotent by dr_sid: everything counts as a duplicate.
    const plain = await http()
      .post(`${API}/calls/call_drs`)
      .set(...sender.auth)
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson([...head, ...tail]));
    expect(plain.body).toMatchObject({ stored: 0, duplicates: INGEST_BATCH_RECORDS + 1 });
  }, 90_000);
});
