/**
 * Usage of detail records (docs/interface-notes.md, Usage): totals per hour, day or month computed by
 * the store, exact against the records this test wrote; empty buckets as zeros; a time zone moves
 * records between days; a second key; another partner's records never count; bad parameters are 400s
 * naming them.
 */
import { randomUUID } from 'node:crypto';
import { API, http, newPartner, type TestPartner } from '../harness/api';

const call = (dateStop: string, extra: Record<string, unknown> = {}) => ({
  dr_sid: randomUUID(),
  date_start: new Date(new Date(dateStop).getTime() - 120_000).toISOString(),
  date_stop: dateStop,
  ...extra,
});
const message = (dateInsert: string, extra: Record<string, unknown> = {}) => ({
  dr_sid: randomUUID(),
  date_insert: dateInsert,
  ...extra,
});

/** Calls of 1–4 June 2025 (UTC), and two just outside. */
const CALLS = [
  call('2025-05-31T23:59:59Z', { sipcause: '200', duration_billing: '30', price: '1' }), // 1 June in Paris
  call('2025-06-01T10:00:00Z', { sipcause: '200', duration_billing: '60', price: '0.0100' }),
  call('2025-06-01T11:00:00Z', { sipcause: '486', duration_billing: '0', price: '0' }),
  call('2025-06-03T23:30:00Z', { sipcause: '200', duration_billing: '90.5', price: '0.015', direction: 'outbound' }),
  call('2025-06-05T00:00:00Z', { sipcause: '200', duration_billing: '60', price: '1' }), // 5 June 02:00 in Paris
];
const JUNE = encodeURIComponent('date_stop ge 2025-06-01 and date_stop lt 2025-06-05');
const JUNE_PARIS = encodeURIComponent(
  'date_stop ge 2025-06-01T00:00:00+02:00 and date_stop lt 2025-06-05T00:00:00+02:00',
);
const zeroCalls = { calls: 0, answered: 0, minutes: 0, cost: 0, asr: 0, acd: 0 };

let a: TestPartner;
let b: TestPartner;
const get = (who: TestPartner, path: string) =>
  http()
    .get(`${API}${path}`)
    .set(...who.auth);
const ingest = async (who: TestPartner, path: string, records: unknown[]) => {
  const res = await http()
    .post(`${API}${path}`)
    .set(...who.auth)
    .send(records);
  expect(res.body).toMatchObject({ stored: records.length, rejected: 0 });
};

beforeAll(async () => {
  [a, b] = await Promise.all([newPartner(), newPartner()]);
  await ingest(a, '/calls/call_drs', CALLS);
  // B's records on the same days must never reach A's totals (nor A's B's).
  await ingest(b, '/calls/call_drs', [
    call('2025-06-02T12:00:00Z', { sipcause: '200', duration_billing: '600', price: '5' }),
  ]);
  await ingest(a, '/sms/message_drs', [
    message('2025-06-01T08:00:00Z', { message_segments: 2, price: '0.05' }),
    message('2025-06-01T09:00:00Z', { message_segments: 1, price: '0.025', direction: 'inbound' }),
    message('2025-06-03T09:00:00Z', { price: '0.5' }),
  ]);
});

describe('calls', () => {
  test('per UTC day: exact totals, empty days as zeros, in date order', async () => {
    const res = await get(a, `/calls/call_drs/usage?group_by=day&filter=${JUNE}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2025-06-01T00:00:00Z',
      to: '2025-06-05T00:00:00Z',
      group_by: 'day',
      tz: 'UTC',
      items: [
        { date: '2025-06-01T00:00:00Z', calls: 2, answered: 1, minutes: 1, cost: 0.01, asr: 0.5, acd: 1 },
        { date: '2025-06-02T00:00:00Z', ...zeroCalls },
        { date: '2025-06-03T00:00:00Z', calls: 1, answered: 1, minutes: 1.51, cost: 0.015, asr: 1, acd: 1.51 },
        { date: '2025-06-04T00:00:00Z', ...zeroCalls },
      ],
    });
  });

  test('in a time zone: days are local, the range is the filter’s', async () => {
    const res = await get(a, `/calls/call_drs/usage?group_by=day&tz=Europe/Paris&filter=${JUNE_PARIS}`);
    expect(res.status).toBe(200);
    expect(res.body.tz).toBe('Europe/Paris');
    expect(res.body.items.map((i: { date: string; calls: number }) => [i.date, i.calls])).toEqual([
      ['2025-06-01T00:00:00+02:00', 3],
      ['2025-06-02T00:00:00+02:00', 0],
      ['2025-06-03T00:00:00+02:00', 0],
      ['2025-06-04T00:00:00+02:00', 1],
    ]);
    expect(res.body.items[0]).toMatchObject({ minutes: 1.5, cost: 1.01, answered: 2 });
  });

  test('per month and per hour', async () => {
    const month = await get(a, `/calls/call_drs/usage?group_by=month&filter=${JUNE}`);
    expect(month.body.items).toEqual([
      { date: '2025-06-01T00:00:00Z', calls: 3, answered: 2, minutes: 2.51, cost: 0.025, asr: 0.6667, acd: 1.25 },
    ]);
    const range = 'date_stop ge 2025-06-01T09:30:00Z and date_stop le 2025-06-01T11:00:00Z';
    const hours = await get(a, `/calls/call_drs/usage?group_by=hour&filter=${encodeURIComponent(range)}`);
    expect(hours.body.items.map((i: { date: string; calls: number }) => [i.date, i.calls])).toEqual([
      ['2025-06-01T09:00:00Z', 0],
      ['2025-06-01T10:00:00Z', 1],
      ['2025-06-01T11:00:00Z', 1],
    ]);
  });

  test('a second key: every value in every bucket, null first', async () => {
    const res = await get(a, `/calls/call_drs/usage?group_by=day,direction&filter=${JUNE}`);
    expect(res.body.group_by).toBe('day,direction');
    expect(
      res.body.items.map((i: { date: string; direction: string | null; calls: number }) => [
        i.date.slice(0, 10),
        i.direction,
        i.calls,
      ]),
    ).toEqual([
      ['2025-06-01', null, 2],
      ['2025-06-01', 'outbound', 0],
      ['2025-06-02', null, 0],
      ['2025-06-02', 'outbound', 0],
      ['2025-06-03', null, 0],
      ['2025-06-03', 'outbound', 1],
      ['2025-06-04', null, 0],
      ['2025-06-04', 'outbound', 0],
    ]);
  });

  test('the filter selects the records counted', async () => {
    const res = await get(a, `/calls/call_drs/usage?filter=${JUNE}${encodeURIComponent(' and sipcause eq 486')}`);
    expect(res.body.items.map((i: { calls: number }) => i.calls)).toEqual([1, 0, 0, 0]);
  });

  test("partners are isolated: B's totals hold only B's record", async () => {
    const res = await get(b, `/calls/call_drs/usage?filter=${JUNE}`);
    expect(res.body.items.map((i: { calls: number; minutes: number }) => [i.calls, i.minutes])).toEqual([
      [0, 0],
      [1, 10],
      [0, 0],
      [0, 0],
    ]);
  });

  test('without a range: the 30 days before now, a recent call in the last bucket', async () => {
    const p = await newPartner();
    const at = new Date(Date.now() - 60_000);
    await ingest(p, '/calls/call_drs', [call(at.toISOString(), { sipcause: '200' })]);
    const res = await get(p, '/calls/call_drs/usage');
    expect(res.status).toBe(200);
    const items: Array<{ date: string; calls: number }> = res.body.items;
    expect(items.length).toBeGreaterThanOrEqual(30);
    expect(items.length).toBeLessThanOrEqual(31);
    expect(Date.parse(res.body.from)).toBeLessThanOrEqual(Date.now() - 30 * 86_400_000);
    expect(items.filter((i) => i.calls > 0)).toEqual([
      expect.objectContaining({ date: `${at.toISOString().slice(0, 10)}T00:00:00Z`, calls: 1, answered: 1 }),
    ]);
  });
});

test('messages per day: count, segments, cost', async () => {
  const res = await get(
    a,
    `/sms/message_drs/usage?filter=${encodeURIComponent('date_insert ge 2025-06-01 and date_insert lt 2025-06-04')}`,
  );
  expect(res.status).toBe(200);
  expect(res.body.items).toEqual([
    { date: '2025-06-01T00:00:00Z', messages: 2, segments: 3, cost: 0.075 },
    { date: '2025-06-02T00:00:00Z', messages: 0, segments: 0, cost: 0 },
    { date: '2025-06-03T00:00:00Z', messages: 1, segments: 0, cost: 0.5 },
  ]);
});

describe('bad requests name the parameter', () => {
  test.each([
    ['group_by=week', 'group_by'],
    ['group_by=day,price', 'group_by'],
    ['group_by=day,direction,sipcause', 'group_by'],
    ['tz=Mars/Olympus_Mons', 'tz'],
    [`filter=${encodeURIComponent('date_stop ge 2024-01-01 and date_stop lt 2025-06-01')}`, 'filter'],
    [`filter=${encodeURIComponent('date_stop ge 2025-06-02 and date_stop lt 2025-06-01')}`, 'filter'],
    [`filter=${encodeURIComponent('date_stop ge')}`, 'filter'],
    // 364 days of hours (8,736) for two directions: more than the 10,000 items an answer holds.
    [
      `group_by=hour,direction&filter=${encodeURIComponent('date_stop ge 2024-06-06 and date_stop lt 2025-06-05')}`,
      'group_by',
    ],
  ])('%s', async (query, field) => {
    const res = await get(a, `/calls/call_drs/usage?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  test("the records' read scope is needed", async () => {
    const smsOnly = await newPartner({ scopes: ['sms.read'] });
    expect((await get(smsOnly, '/calls/call_drs/usage')).status).toBe(403);
    expect((await get(smsOnly, '/sms/message_drs/usage')).status).toBe(200);
  });
});
