/**
 * Bulk exports of detail records (docs/interface-notes.md, Record exports) through the public API,
 * in both modes: the file's records equal the cursor listing walk with the same filter, in order
 * (NDJSON gzip and plain CSV with the formula guard); the file is an ordinary file of the
 * container; a quota too small fails the export with the reason and leaves no file; a cancelled
 * export leaves no file; the completion callback is signed, retried until a 2xx, and delivered
 * once with one event id, its signing key found nowhere in what Patchbay stores (sealed at rest,
 * docs/security.md "Secrets at rest"); another partner's exports are a 404; bad bodies name their field.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { verifyCallback } from '@patchbay/platform';
import { API, expectErrorBody, http as api, instance, newPartner, type TestPartner } from '../harness/api';
import { storedTexts } from '../harness/stores';
import type { ApiJson } from '../support/api-json';
import { until } from '../support/poll';
import { exportEnded, exportText, fileBytes, ingestRecords, startExport, walkList } from '../support/record-exports';
import { ageDecrypt, makePartnerKeys } from '../support/age-keys';
import { createContainer, listFiles } from '../support/storage';

const CALLS = '/calls/call_drs';
const MESSAGES = '/sms/message_drs';
const N = 2600;
/** Many records share an instant: the order's tie-breaker (dr_sid) matters. */
const instant = (i: number) => new Date(Date.UTC(2024, 4, 1) + ((i * 7919) % 900) * 1000).toISOString();
const call = (i: number) => ({
  dr_sid: randomUUID(),
  date_start: new Date(Date.parse(instant(i)) - 60_000).toISOString(),
  date_stop: instant(i),
  direction: i % 3 === 0 ? 'inbound' : 'outbound',
  price: `0.00${i % 10}`,
  number_src: i % 100 === 0 ? '=HYPERLINK("http://x")' : `1555${String(i).padStart(7, '0')}`,
  sipcause: '200',
});

let a: TestPartner;
beforeAll(async () => {
  a = await newPartner({ attributes: { max_containers: 20 } });
  await ingestRecords(
    a,
    CALLS,
    Array.from({ length: N }, (_, i) => call(i)),
  );
}, 120_000);

const done = async (p: TestPartner, path: string, body: Record<string, unknown>): Promise<ApiJson> => {
  const res = await startExport(p, path, body);
  expect(res.status).toBe(202);
  expect(res.body).toMatchObject({ status: 'queued', kind: path === CALLS ? 'call' : 'message', file_sid: null });
  return exportEnded(p, path, res.body.export_sid);
};

test('NDJSON gzip: the file holds exactly what the cursor walk lists with the same filter, in order', async () => {
  const filter = `date_stop ge "2024-05-01T00:05:00Z" and direction eq "outbound"`;
  const ex = await done(a, CALLS, { filter, format: 'ndjson', compression: 'gzip', name: 'may.ndjson.gz' });
  expect(ex).toMatchObject({ status: 'done', progress: 100, error: null, filter, name: 'may.ndjson.gz' });
  const listed = await walkList(a, CALLS, filter);
  expect(listed.length).toBeGreaterThan(1000);
  expect(ex.record_count).toBe(listed.length);
  const text = await exportText(a, ex.file_sid);
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.map((l) => JSON.parse(l))).toEqual(listed);

  // An ordinary file of the container: listed, its size the export's bytes, downloadable by ranges too.
  const files = await listFiles(a, ex.container_sid);
  const file = files.find((f) => f.file_sid === ex.file_sid);
  expect(file).toMatchObject({ name: 'may.ndjson.gz', file_bytes: ex.bytes, mime_type: 'application/gzip' });
  const whole = await fileBytes(a, ex.file_sid);
  expect(whole.length).toBe(ex.bytes);
  // Published as the container's files are: the public file server serves it, by ranges too.
  expect(file!.publish_uri).toMatch(/\/f\//);
  const part = await fetch(String(file!.publish_uri), { headers: { Range: 'bytes=2-9' } });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(2, 10));
});

test('CSV without compression: the list field names as header, RFC 4180, formulas made inert', async () => {
  const box = await createContainer(a, { name: `csv-${randomUUID()}` });
  const ex = await done(a, CALLS, { format: 'csv', compression: 'none', container_sid: box.container_sid });
  expect(ex).toMatchObject({ status: 'done', record_count: N, container_sid: box.container_sid });
  expect(ex.name).toMatch(/^call-records-\d{8}T\d{6}Z\.csv$/);
  const text = await exportText(a, ex.file_sid);
  const rows = text.split('\r\n');
  expect(rows.pop()).toBe('');
  const listed = await walkList(a, CALLS);
  expect(rows[0].split(',')).toEqual(Object.keys(listed[0]));
  expect(rows.length - 1).toBe(N);
  const col = rows[0].split(',').indexOf('number_src');
  const sidCol = rows[0].split(',').indexOf('dr_sid');
  expect(rows.slice(1).map((r) => r.split(',')[sidCol])).toEqual(listed.map((r) => r.dr_sid));
  // `=HYPERLINK("http://x")` is quoted (it holds quotes) and starts with ' (inert).
  expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
  expect(
    rows
      .slice(1)
      .filter((r) => !r.includes('HYPERLINK'))
      .every((r) => /^1555\d{7}$/.test(r.split(',')[col])),
  ).toBe(true);
});

test('message records export too, in listing order', async () => {
  const b = await newPartner();
  const msgs = Array.from({ length: 30 }, (_, i) => ({
    dr_sid: randomUUID(),
    date_insert: instant(i),
    date_stop: i % 5 === 0 ? null : instant(i),
    type: 'sms',
    direction: 'outbound',
    message: `hello, "world" ${i}`,
    message_segments: 1,
  }));
  await ingestRecords(b, MESSAGES, msgs);
  const ex = await done(b, MESSAGES, { compression: 'none' });
  expect(ex).toMatchObject({ status: 'done', record_count: 30, kind: 'message' });
  const text = await exportText(b, ex.file_sid);
  expect(
    text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  ).toEqual(await walkList(b, MESSAGES));
});

test('into a container that encrypts: the stored file is an age file of the export', async () => {
  const keys = makePartnerKeys();
  try {
    const key = await api()
      .post(`${API}/storage/encryption_keys`)
      .set(...a.auth)
      .send({ public_key: keys.ageRecipient });
    expect(key.status).toBe(201);
    const box = await createContainer(a, {
      name: `sealed-${randomUUID()}`,
      encryption_key_sids: [key.body.encryption_key_sid],
    });
    const filter = `direction eq "inbound"`;
    const ex = await done(a, CALLS, { filter, compression: 'none', container_sid: box.container_sid });
    expect(ex).toMatchObject({ status: 'done' });
    const stored = await fileBytes(a, ex.file_sid);
    expect(stored.subarray(0, 21).toString()).toBe('age-encryption.org/v1');
    expect(stored.length).toBe(ex.bytes);
    const plain = (await ageDecrypt(stored, keys.ageIdentityFile)).toString('utf8');
    expect(
      plain
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(await walkList(a, CALLS, filter));
  } finally {
    keys.cleanup();
  }
});

test('a container without room: the export fails naming quota_bytes, and no file is left', async () => {
  const box = await createContainer(a, { name: `small-${randomUUID()}`, quota_bytes: 2000 });
  const ex = await done(a, CALLS, { container_sid: box.container_sid, compression: 'none' });
  expect(ex).toMatchObject({ status: 'failed', file_sid: null });
  expect(ex.error).toMatch(/quota_bytes/);
  expect(await listFiles(a, box.container_sid)).toEqual([]);
});

test('a cancelled export leaves no file; an ended one cannot be cancelled', async () => {
  const box = await createContainer(a, { name: `cancel-${randomUUID()}` });
  // Several at once: with two run at a time, the last is still queued when cancelled, or running.
  const started = [];
  for (let i = 0; i < 4; i++)
    started.push(await startExport(a, CALLS, { container_sid: box.container_sid, compression: 'none' }));
  const last = started[3].body.export_sid as string;
  const cancel = await api()
    .delete(`${API}${CALLS}/exports/${last}`)
    .set(...a.auth);
  const ended = await Promise.all(started.map((s) => exportEnded(a, CALLS, s.body.export_sid)));
  if (cancel.status === 200) {
    expect(cancel.body).toMatchObject({ export_sid: last, status: 'cancelled' });
    expect(ended[3]).toMatchObject({ status: 'cancelled', file_sid: null });
  } else {
    // It had ended already (the machine was fast): a 409 naming the status, the file kept.
    expect(cancel.status).toBe(409);
    expect(ended[3].status).toBe('done');
  }
  const files = await listFiles(a, box.container_sid);
  expect(files.map((f) => f.file_sid).sort()).toEqual(
    ended
      .filter((e) => e.status === 'done')
      .map((e) => e.file_sid)
      .sort(),
  );
  const again = await api()
    .delete(`${API}${CALLS}/exports/${started[0].body.export_sid}`)
    .set(...a.auth);
  expect(again.status).toBe(409);
  expectErrorBody(again.body);
  expect(again.body.errors[0].field).toBe('status');
}, 120_000);

test('the callback is signed, retried until a 2xx, delivered once with one event id; its key is sealed', async () => {
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      res.writeHead(seen.length < 3 ? 503 : 204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?x=1`;
    const res = await startExport(a, CALLS, { filter: `direction eq "inbound"`, callback_url: url });
    expect(res.status).toBe(202);
    const key = res.body.callback_signing_key as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.body.callback).toMatchObject({ url, state: 'waiting', attempt_count: 0 });
    const sid = res.body.export_sid as string;
    const delivered = await until('the callback delivered', 60_000, async () => {
      const r = await api()
        .get(`${API}${CALLS}/exports/${sid}`)
        .set(...a.auth);
      return r.body.callback?.state === 'delivered' ? (r.body as ApiJson) : undefined;
    });
    expect(delivered).not.toHaveProperty('callback_signing_key');
    expect(delivered.callback).toMatchObject({ attempt_count: 3, event_id: res.body.callback.event_id });
    expect(delivered.callback.attempts.map((t: ApiJson) => [t.outcome, t.status])).toEqual([
      ['failed', 503],
      ['failed', 503],
      ['delivered', 204],
    ]);
    expect(seen).toHaveLength(3);
    for (const s of seen) {
      expect(s.headers['x-patchbay-event']).toBe('record_export.completed');
      expect(s.headers['x-patchbay-event-id']).toBe(res.body.callback.event_id);
      expect(verifyCallback(key, s.body, String(s.headers['x-patchbay-signature']))).toBe(true);
      expect(verifyCallback('another key', s.body, String(s.headers['x-patchbay-signature']))).toBe(false);
      const sent = JSON.parse(s.body);
      expect(sent).toMatchObject({ event: 'record_export.completed', event_id: res.body.callback.event_id });
      expect(sent.export).toMatchObject({ export_sid: sid, status: 'done', file_sid: delivered.file_sid });
    }
    // Delivered: never sent again (the list of exports shows it delivered, and nothing more arrives).
    const list = await api()
      .get(`${API}${CALLS}/exports`)
      .set(...a.auth);
    expect(list.status).toBe(200);
    expect(list.body.items.find((e: ApiJson) => e.export_sid === sid).callback.state).toBe('delivered');
    expect(seen).toHaveLength(3);
    // The key the 202 showed is stored sealed: no document or file of the instance holds it.
    const stored = await storedTexts(instance());
    expect(stored.filter((t) => t.text.includes(sid)).length).toBeGreaterThan(0);
    expect(stored.filter((t) => t.text.includes(key)).map((t) => t.where)).toEqual([]);
  } finally {
    await new Promise((r) => receiver.close(r));
  }
}, 90_000);

test("another partner's export is a 404 everywhere, and absent from its list", async () => {
  const ex = await done(a, CALLS, { filter: `direction eq "inbound"` });
  const b = await newPartner();
  for (const req of [
    api().get(`${API}${CALLS}/exports/${ex.export_sid}`),
    api().delete(`${API}${CALLS}/exports/${ex.export_sid}`),
    api().get(`${API}${MESSAGES}/exports/${ex.export_sid}`),
  ]) {
    const res = await req.set(...b.auth);
    expect(res.status).toBe(404);
    expectErrorBody(res.body);
  }
  const list = await api()
    .get(`${API}${CALLS}/exports`)
    .set(...b.auth);
  expect(list.body.items).toEqual([]);
  // The kind is part of the address: a call export is not a message export of the same partner.
  expect(
    (
      await api()
        .get(`${API}${MESSAGES}/exports/${ex.export_sid}`)
        .set(...a.auth)
    ).status,
  ).toBe(404);
});

test('bad bodies are refused naming the field', async () => {
  const cases: Array<[Record<string, unknown>, number, string]> = [
    [{ format: 'xml' }, 400, 'format'],
    [{ compression: 'zip' }, 400, 'compression'],
    [{ colour: 'red' }, 400, 'colour'],
    [{ filter: 'date_stop >>> 3' }, 400, 'filter'],
    [{ filter: `no_such_field eq "x"` }, 400, 'filter'],
    [{ name: '' }, 400, 'name'],
    [{ container_sid: randomUUID() }, 422, 'container_sid'],
    [{ callback_url: 'ftp://example.com/x' }, 422, 'callback_url'],
    [{ callback_url: 'not a url' }, 422, 'callback_url'],
  ];
  for (const [body, status, field] of cases) {
    const res = await startExport(a, CALLS, body);
    expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
    expectErrorBody(res.body);
    expect(res.body.errors.map((e: ApiJson) => e.field)).toContain(field);
  }
  const other = await newPartner({ attributes: { max_containers: 20 } });
  const box = await createContainer(other, { name: `theirs-${randomUUID()}` });
  const theirs = await startExport(a, CALLS, { container_sid: box.container_sid });
  expect(theirs.status).toBe(422);
  expect(theirs.body.errors[0].field).toBe('container_sid');
  const unknown = await api()
    .get(`${API}${CALLS}/exports/${randomUUID()}`)
    .set(...a.auth);
  expect(unknown.status).toBe(404);
});

test('without storage.manage the export is refused (403)', async () => {
  const reader = await newPartner({ scopes: ['calls.read'] });
  const res = await startExport(reader, CALLS, {});
  expect(res.status).toBe(403);
  expectErrorBody(res.body);
});
