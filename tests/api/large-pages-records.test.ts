/**
 * Lists of records at `limit=1000` with the largest items they hold, in both run modes: in the
 * distributed mode over a nats-server with its default max_payload (1 MiB), in the all-in-one with
 * the in-process bus enforcing the same limit (BUS_MAX_PAYLOAD, set by the harness). Such pages are
 * many MB; before the bus carried messages of any size, they were a 504 after the bus timeout (and
 * then a 503 for every records call, the gateway's circuit open). Also the CDR export loop clients
 * run: follow `pagination.next` at limit=1000 until a short page.
 */
import { randomUUID } from 'node:crypto';
import { API, http, newPartner, type TestPartner } from '../harness/api';

const MiB = 1024 * 1024;
/** The longest `user_data` allowed (4,096 characters), three UTF-8 bytes each. */
const LONG_USER_DATA = '€'.repeat(4096);

const post = (p: TestPartner, path: string, records: unknown[]) =>
  http()
    .post(`${API}${path}`)
    .set(...p.auth)
    .set('Content-Type', 'application/x-ndjson')
    .send(records.map((r) => JSON.stringify(r)).join('\n'));

async function ingest(p: TestPartner, path: string, records: unknown[]): Promise<void> {
  const res = await post(p, path, records);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ complete: true, stored: records.length, rejected: 0 });
}

const at = (i: number, s = 0) => new Date(Date.UTC(2025, 0, 1) + i * 60_000 + s * 1000).toISOString();

/** A call record with every documented field set, its long text fields at their longest. */
const fullCall = (p: TestPartner, i: number) => ({
  cic: '0288',
  cic_original: '0288',
  cic_transformed: '0110',
  codec_dst: 'g722',
  codec_src: 'amrwb',
  date_insert: at(i, 30),
  date_start: at(i),
  date_stop: at(i, 20),
  date_talk: at(i, 5),
  direction: 'inbound',
  disconnect_originator: 'DST',
  diversion_dst: '+15550001001',
  diversion_src: '+15550001002',
  dr_sid: randomUUID(),
  duration: '20',
  duration_billing: '60',
  endpoint_sid_dst: randomUUID(),
  endpoint_sid_src: randomUUID(),
  identity: `<sip:+15550002000@198.51.100.7>;${'i'.repeat(990)}`,
  ip_dst: '10.222.2.197:5060',
  ip_src: '198.51.100.18',
  number_billing: '15550003000',
  number_dst: '15550003000',
  number_dst_original: '5550003000',
  number_dst_transformed: '+15550003000',
  number_external: '15550004000',
  number_src: '+15550004000',
  number_src_original: '5550004000',
  number_src_transformed: '+15550004000',
  partner_sid: p.partner_sid,
  price: '0.0025',
  price_lcr_dst: '0.0021',
  price_lcr_src: '0.0019',
  rate: '0.0025',
  rate_lcr_dst: '0.005',
  rate_lcr_src: '0.004',
  sipcallid_dst: '11b5b29c3486cac5@203.0.113.174',
  sipcallid_src: '428ac5df4582bea6@198.51.100.24',
  sipcause: '200',
  stir_attest: 'A',
  stir_identity: 's'.repeat(4096),
  stir_orig_id: '+15550004000',
  stir_signing_entity: 'example-carrier',
  stir_verstat: 'TN-Validation-Passed',
  transcoded: true,
  trunk_group_sid_dst: randomUUID(),
  trunk_group_sid_src: randomUUID(),
  user_data: `${i} ${LONG_USER_DATA}`.slice(0, 4096),
  version: 2,
});

/** A message record with every documented field set, its text and lists at their longest. */
const fullMessage = (p: TestPartner, i: number) => ({
  a2p_campaign: 'CVN1LXI',
  date_changed: at(i, 3),
  date_insert: at(i),
  date_sent: at(i, 2),
  date_start: at(i),
  date_stop: at(i, 4),
  delay_sent: 1,
  direction: 'outbound',
  dr_sid: randomUUID(),
  mcc: 310,
  mcc_mnc_price: '0.015',
  mcc_mnc_rate: '0.005',
  media_urls: Array.from({ length: 10 }, (_, k) => `https://files.example.com/f/${k}/${'m'.repeat(1990)}`),
  message: 'hello '.repeat(2730),
  message_segments: 1,
  mnc: 999,
  number_billing: '12075550100',
  number_dst: '17575550101',
  number_external: '17575550101',
  number_group_dst: Array.from({ length: 100 }, (_, k) => `1720555${String(k).padStart(4, '0')}`),
  number_src: '12075550100',
  p2p_nnid: '123456',
  partner_sid: p.partner_sid,
  passthrough_price: '0.0031',
  passthrough_rate: '0.0029',
  price: '0.015',
  provider: 'tsg',
  rate: '0.005',
  registration_type: 'a2p',
  status: 'sent',
  type: 'mms',
  user_data: `${i} ${LONG_USER_DATA}`.slice(0, 4096),
  vendor_error_code: '503',
  version: '3',
});

describe.each([
  ['/calls/call_drs', fullCall],
  ['/sms/message_drs', fullMessage],
])('GET %s?limit=1000 with the largest records', (path, make) => {
  let p: TestPartner;
  let sent: Array<Record<string, unknown>>;
  beforeAll(async () => {
    p = await newPartner();
    sent = Array.from({ length: 1000 }, (_, i) => make(p, i));
    for (let i = 0; i < sent.length; i += 250) await ingest(p, path, sent.slice(i, i + 250));
  }, 120_000);

  test('one page holds all 1,000, every field as ingested', async () => {
    const res = await http()
      .get(`${API}${path}?limit=1000`)
      .set(...p.auth);
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeGreaterThan(10 * MiB);
    expect(res.body.count).toBe(1000);
    const bySid = new Map(sent.map((r) => [r.dr_sid, r]));
    for (const item of res.body.items as Array<Record<string, unknown>>) {
      const mine = bySid.get(item.dr_sid);
      expect(mine).toBeDefined();
      expect(item.user_data).toBe(mine!.user_data);
      expect(item.partner_sid).toBe(p.partner_sid);
    }
    expect(new Set(res.body.items.map((r: { dr_sid: string }) => r.dr_sid)).size).toBe(1000);
  }, 60_000);

  test('one record, and a page with the long fields filtered in, work the same', async () => {
    const one = await http()
      .get(`${API}${path}/${String(sent[7].dr_sid)}`)
      .set(...p.auth);
    expect(one.status).toBe(200);
    expect(one.body.user_data).toBe(sent[7].user_data);
    const narrow = await http()
      .get(`${API}${path}?limit=1000&include_fields=dr_sid,user_data`)
      .set(...p.auth);
    expect(narrow.status).toBe(200);
    expect(narrow.body.count).toBe(1000);
    expect(Object.keys(narrow.body.items[0]).sort()).toEqual(['dr_sid', 'user_data']);
  }, 60_000);
});

/** One page of a list: its items, the `pagination.next` path (if any) and its size on the wire. */
async function getPage(
  p: TestPartner,
  url: string,
): Promise<{ items: Array<{ dr_sid: string }>; next?: string; bytes: number }> {
  const res = await http()
    .get(url)
    .set(...p.auth);
  expect(res.status).toBe(200);
  const next: string | undefined = res.body.pagination?.next;
  return {
    items: res.body.items,
    bytes: Buffer.byteLength(res.text),
    next: next?.startsWith('http') ? new URL(next).pathname + new URL(next).search : next,
  };
}

describe('CDR export: follow pagination.next at limit=1000 until a short page', () => {
  test('5,000 call records come back once each, in pages of 1,000 each larger than 1 MiB', async () => {
    const p = await newPartner();
    const total = 5000;
    const sids = new Set<string>();
    for (let i = 0; i < total; i += 1000) {
      const batch = Array.from({ length: 1000 }, (_, k) => ({
        dr_sid: randomUUID(),
        date_start: at(i + k),
        date_stop: at(i + k, 30),
        price: '0.01',
        number_src: '+15550004000',
        number_dst: '+15550003000',
        user_data: `export ${i + k} ${'u'.repeat(1200)}`,
      }));
      for (const r of batch) sids.add(r.dr_sid);
      await ingest(p, '/calls/call_drs', batch);
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let url: string | undefined = `${API}/calls/call_drs?limit=1000`;
    for (let pages = 0; url && pages < 10; pages++) {
      const page = await getPage(p, url);
      sizes.push(page.items.length);
      if (page.items.length === 1000) expect(page.bytes).toBeGreaterThan(MiB);
      seen.push(...page.items.map((r) => r.dr_sid));
      if (page.items.length < 1000) break;
      url = page.next;
    }
    expect(sizes.slice(0, 5)).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(seen).toHaveLength(total);
    expect(new Set(seen)).toEqual(sids);
  }, 180_000);
});

describe('many large pages of one partner at once (LIST_LARGE_PER_PARTNER, default 2)', () => {
  test('each a 200 or a 429 with Retry-After naming limit; smaller pages and other partners are served', async () => {
    const [p, other] = [await newPartner(), await newPartner()];
    // About 1.4 KB each: a page of 1,000 is over 1 MiB, so its reply crosses the bus in chunks.
    const records = Array.from({ length: 1000 }, (_, i) => ({
      dr_sid: randomUUID(),
      date_start: at(i),
      date_stop: at(i, 30),
      user_data: `burst ${i} ${'b'.repeat(1300)}`,
    }));
    await ingest(p, '/calls/call_drs', records);
    await ingest(
      other,
      '/calls/call_drs',
      records.slice(0, 3).map((r) => ({ ...r, dr_sid: randomUUID() })),
    );
    const page = (who: TestPartner, limit: number) =>
      http()
        .get(`${API}/calls/call_drs?limit=${limit}`)
        .set(...who.auth);
    const statuses: number[] = [];
    // Twelve at once, again until the partner's share is seen exceeded (it is at the first burst, as a rule).
    for (let burst = 0; burst < 5 && !statuses.includes(429); burst++) {
      const answers = await Promise.all(Array.from({ length: 12 }, () => page(p, 1000)));
      for (const res of answers) {
        statuses.push(res.status);
        if (res.status === 200) expect(res.body.count).toBe(1000);
        else {
          expect(res.status).toBe(429);
          expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
          expect(res.body.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
        }
      }
      // Meanwhile and after: the same partner's small pages and another partner's lists.
      expect((await page(p, 100)).status).toBe(200);
      expect((await page(other, 1000)).body.count).toBe(3);
    }
    expect(statuses).toContain(429);
    expect(statuses).toContain(200);
  }, 120_000);
});
