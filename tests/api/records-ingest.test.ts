/**
 * Bulk ingest of detail records (`POST /calls/call_drs`, `POST /sms/message_drs`): JSON array or
 * NDJSON, streamed (bodies larger than the JSON body limit; batches stored while the body is still
 * arriving), bad records reported by position and skipped, idempotent by dr_sid.
 */
import nodeHttp from 'node:http';
import { randomUUID } from 'node:crypto';
import { INGEST_BATCH_RECORDS } from '@patchbay/contracts';
import { API, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { eventually } from '../support/poll';

let partner: TestPartner;
beforeAll(async () => {
  partner = await newPartner();
});

const call = (i: number, extra: Record<string, unknown> = {}) => ({
  dr_sid: randomUUID(),
  date_start: new Date(Date.UTC(2024, 5, 1, 0, 0, 0) + i * 1000).toISOString(),
  date_stop: new Date(Date.UTC(2024, 5, 1, 0, 1, 0) + i * 1000).toISOString(),
  price: '0.01',
  ...extra,
});
const ndjson = (records: unknown[]) => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');
const post = (path: string, who: TestPartner = partner) =>
  http()
    .post(`${API}${path}`)
    .set(...who.auth);

describe('POST /calls/call_drs', () => {
  test(
    'a JSON array: good records stored, bad ones reported by position and ' + 'skipped, unknown fields dropped',
    async () => {
      const good = [call(1), call(2), call(3), { ...call(5), unknown_field: 1 }];
      const body = [
        good[0],
        { ...call(4), price: 0.5 },
        'not an object',
        good[1],
        good[3],
        { ...call(6), date_stop: '2024-01-01T00:00:00Z' },
        good[2],
      ];
      const res = await post('/calls/call_drs').send(body);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'complete',
        'duplicates',
        'errors',
        'ignored_fields',
        'received',
        'rejected',
        'stored',
      ]);
      expect(res.body).toMatchObject({
        complete: true,
        received: 7,
        stored: 4,
        duplicates: 0,
        rejected: 3,
        ignored_fields: { unknown_field: 1 },
      });
      expect(res.body.errors.map((e: { position: number; field: string | null }) => [e.position, e.field])).toEqual([
        [1, 'price'],
        [2, null],
        [5, 'date_stop'],
      ]);
      expect(res.body.errors[0]).toMatchObject({
        dr_sid: body[1] && (body[1] as { dr_sid: string }).dr_sid,
        message: expect.stringContaining('decimal string'),
      });
      for (const r of good)
        expect(
          (
            await http()
              .get(`${API}/calls/call_drs/${r.dr_sid}`)
              .set(...partner.auth)
          ).status,
        ).toBe(200);
      const refused = await http()
        .get(`${API}/calls/call_drs/${(body[1] as { dr_sid: string }).dr_sid}`)
        .set(...partner.auth);
      expect(refused.status).toBe(404);
    },
  );

  test('NDJSON: a broken line, a non-object and an oversized record are refused at their positions', async () => {
    const big = call(9, { number_src: 'x'.repeat(70_000) });
    const body = ndjson([call(7), '{"dr_sid": broken', '', '[1,2]', big, call(8)]);
    const res = await post('/calls/call_drs').set('Content-Type', 'application/x-ndjson').send(body);
    expect(res.status).toBe(200);
    // Empty lines are not records: positions count the non-empty lines.
    expect(res.body).toMatchObject({ received: 5, stored: 2, rejected: 3, complete: true });
    expect(res.body.errors.map((e: { position: number }) => e.position)).toEqual([1, 2, 3]);
    expect(res.body.errors[0].message).toMatch(/^invalid JSON/);
    expect(res.body.errors[1].message).toBe('a record must be a JSON object');
    expect(res.body.errors[2].message).toMatch(/must not exceed 65536 bytes/);
  });

  test('idempotent by dr_sid: a replay stores nothing and is not an error', async () => {
    const records = Array.from({ length: 20 }, (_, i) => call(100 + i));
    const first = await post('/calls/call_drs').send(records);
    expect(first.body).toMatchObject({ stored: 20, duplicates: 0, rejected: 0 });
    const again = await post('/calls/call_drs')
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson([...records, records[0]]));
    expect(again.body).toMatchObject({ received: 21, stored: 0, duplicates: 21, rejected: 0, errors: [] });
  });

  test("a record naming another partner is refused; another partner's dr_sid is the caller's own record", async () => {
    const other = await newPartner();
    const mine = call(200);
    await post('/calls/call_drs').send([mine]);
    expect(
      (
        await http()
          .get(`${API}/calls/call_drs/${mine.dr_sid}`)
          .set(...other.auth)
      ).status,
    ).toBe(404);
    const res = await post('/calls/call_drs', other).send([
      call(201, { partner_sid: partner.partner_sid }),
      { ...mine, price: '0.99' },
      call(202, { partner_sid: other.partner_sid }),
    ]);
    expect(res.body).toMatchObject({ stored: 2, rejected: 1, duplicates: 0 });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['partner_sid']);
    const theirs = await http()
      .get(`${API}/calls/call_drs/${mine.dr_sid}`)
      .set(...other.auth);
    expect(theirs.body).toMatchObject({ partner_sid: other.partner_sid, price: '0.99' });
    expect(
      (
        await http()
          .get(`${API}/calls/call_drs/${mine.dr_sid}`)
          .set(...partner.auth)
      ).body,
    ).toMatchObject({ partner_sid: partner.partner_sid, price: '0.01' });
  });

  test('a body far over the JSON body limit is streamed in batches', async () => {
    const records = Array.from({ length: 8000 }, (_, i) =>
      call(1000 + i, {
        number_src: `+1555${String(i).padStart(7, '0')}`,
        number_dst: '+15550000000',
        codec_src: 'pcmu',
      }),
    );
    const body = ndjson(records);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const res = await post('/calls/call_drs').set('Content-Type', 'application/x-ndjson').send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 8000, stored: 8000, rejected: 0, complete: true });
  }, 120_000);

  test('records are stored while the body is still arriving', async () => {
    const sender = await newPartner();
    const url = new URL(`${instance().baseUrl}/calls/call_drs`);
    const req = nodeHttp.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { ...Object.fromEntries([sender.auth]), 'content-type': 'application/x-ndjson' },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
    });
    // One full batch (INGEST_BATCH_RECORDS records) and a few more; the request stays open.
    req.write(`${ndjson(Array.from({ length: INGEST_BATCH_RECORDS + 20 }, (_, i) => call(i)))}\n`);
    await eventually(async () => {
      const list = await http()
        .get(`${API}/calls/call_drs?limit=1000&include_fields=dr_sid`)
        .set(...sender.auth);
      expect(list.body.count).toBe(1000); // a whole page: the first batch is stored
    });
    req.end(`${ndjson([call(INGEST_BATCH_RECORDS + 100)])}\n`);
    const done = await response;
    expect(done.status).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({
      received: INGEST_BATCH_RECORDS + 21,
      stored: INGEST_BATCH_RECORDS + 21,
    });
  }, 60_000);

  test('broken JSON after some records: the records before are stored, complete is false', async () => {
    const records = Array.from({ length: 1200 }, (_, i) => call(3000 + i));
    const body = `${JSON.stringify(records).slice(0, -1)}, {"dr_sid": oops`;
    const res = await post('/calls/call_drs').set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
    expect(res.body.complete).toBe(false);
    expect(res.body.received).toBeGreaterThanOrEqual(1000);
    expect(res.body.stored).toBe(res.body.received);
    const last = res.body.errors[res.body.errors.length - 1];
    expect(last).toMatchObject({ position: res.body.received, message: expect.stringContaining('reading stopped') });
  });

  test.each([
    ['a JSON object instead of an array', 'application/json', '{"dr_sid": "x"}'],
    ['garbage', 'application/json', 'not json at all'],
    ['an empty body', 'application/json', ''],
  ])('%s is a 400 naming the body', async (_name, type, body) => {
    const res = await post('/calls/call_drs').set('Content-Type', type).send(body);
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.message).toBe('No JSON object could be decoded');
    expect(res.body.errors[0].field).toBe('body');
  });

  test('other content types are a 415', async () => {
    const res = await post('/calls/call_drs').set('Content-Type', 'text/plain').send('hello');
    expect(res.status).toBe(415);
    expectErrorBody(res.body);
  });

  test('needs calls.manage or calls.create', async () => {
    const reader = await newPartner({ scopes: ['calls.read'] });
    const res = await post('/calls/call_drs', reader).send([call(1)]);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ errors: [], message: 'Forbidden' });
    const creator = await newPartner({ scopes: ['calls.create'] });
    expect((await post('/calls/call_drs', creator).send([call(2)])).body.stored).toBe(1);
    expect(
      (
        await http()
          .post(`${API}/calls/call_drs`)
          .send([call(3)])
      ).status,
    ).toBe(401);
  });
});

describe('POST /sms/message_drs', () => {
  test('stores message records; defaults and integer coercion apply; needs an sms scope', async () => {
    const sid = randomUUID();
    const res = await post('/sms/message_drs')
      .set('Content-Type', 'application/x-ndjson')
      .send(
        ndjson([
          { dr_sid: sid, type: 'sms', mcc: '310', mnc: 260, message: 'hi', price: '0.015' },
          { dr_sid: randomUUID(), type: 'fax' },
        ]),
      );
    expect(res.body).toMatchObject({
      stored: 1,
      rejected: 1,
      errors: [expect.objectContaining({ position: 1, field: 'type' })],
    });
    const got = await http()
      .get(`${API}/sms/message_drs/${sid}`)
      .set(...partner.auth);
    expect(got.body).toMatchObject({
      dr_sid: sid,
      mcc: 310,
      mnc: 260,
      media_urls: [],
      date_sent: null,
      version: null,
      price: '0.015',
      partner_sid: partner.partner_sid,
    });
    expect(Date.now() - Date.parse(got.body.date_insert)).toBeLessThan(60_000);
    const callsOnly = await newPartner({ scopes: ['calls.create'] });
    expect((await post('/sms/message_drs', callsOnly).send([{ dr_sid: randomUUID() }])).status).toBe(403);
  });
});
