/**
 * `patchbay records usage` against the running instance: the usage answer as JSON (off a terminal),
 * as a table with its totals on a terminal, as CSV; the API's 400 as the exit status and message.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { API, http, newPartner, type TestPartner } from '../harness/api';
import { patchbay, patchbayOnTerminal } from '../support/cli';

const RANGE = 'date_stop ge 2025-06-01 and date_stop lt 2025-06-03';
const call = (dateStop: string, sipcause: string, billing: string, price: string) => ({
  dr_sid: randomUUID(),
  date_start: dateStop,
  date_stop: dateStop,
  sipcause,
  duration_billing: billing,
  price,
});

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner();
  const calls = [
    call('2025-06-01T10:00:00Z', '200', '120', '0.02'),
    call('2025-06-01T11:00:00Z', '404', '0', '0'),
    call('2025-06-02T09:00:00Z', '200', '30', '0.005'),
  ];
  const res = await http()
    .post(`${API}/calls/call_drs`)
    .set(...p.auth)
    .send(calls);
  expect(res.body).toMatchObject({ stored: 3 });
  const sms = [{ dr_sid: randomUUID(), date_insert: '2025-06-02T08:00:00Z', message_segments: 3, price: '0.01' }];
  expect(
    (
      await http()
        .post(`${API}/sms/message_drs`)
        .set(...p.auth)
        .send(sms)
    ).body,
  ).toMatchObject({ stored: 1 });
});

test('prints the answer as JSON when the output is not a terminal: the API answer itself', async () => {
  const res = await patchbay('--token', p.token, 'records', 'usage', '--group-by', 'day', '--filter', RANGE);
  expect(res.code).toBe(0);
  const api = await http()
    .get(`${API}/calls/call_drs/usage?group_by=day&filter=${encodeURIComponent(RANGE)}`)
    .set(...p.auth);
  expect(JSON.parse(res.stdout)).toEqual(api.body);
  expect(JSON.parse(res.stdout).items).toEqual([
    { date: '2025-06-01T00:00:00Z', calls: 2, answered: 1, minutes: 2, cost: 0.02, asr: 0.5, acd: 2 },
    { date: '2025-06-02T00:00:00Z', calls: 1, answered: 1, minutes: 0.5, cost: 0.005, asr: 1, acd: 0.5 },
  ]);
});

test('prints a table and the totals on a terminal', async () => {
  const res = await patchbayOnTerminal(os.tmpdir(), [
    '--token',
    p.token,
    'records',
    'usage',
    '--group-by',
    'day',
    '--filter',
    RANGE,
  ]);
  expect(res.code).toBe(0);
  const lines = res.stdout.replace(/\r/g, '').trim().split('\n');
  expect(lines[0]).toBe('day in UTC, 2025-06-01T00:00:00Z to 2025-06-03T00:00:00Z');
  expect(lines[1].split(/\s+/)).toEqual(['date', 'calls', 'answered', 'minutes', 'cost', 'asr', 'acd']);
  expect(lines[2].split(/\s+/)).toEqual(['2025-06-01T00:00:00Z', '2', '1', '2', '0.02', '0.5', '2']);
  expect(lines[3].split(/\s+/)).toEqual(['2025-06-02T00:00:00Z', '1', '1', '0.5', '0.005', '1', '0.5']);
  expect(lines[4]).toBe('2 buckets; total calls 3, answered 2, minutes 2.5, cost 0.025');
});

test('messages as CSV, with a second key', async () => {
  const res = await patchbay(
    '--token',
    p.token,
    'records',
    'usage',
    '--kind',
    'message',
    '--by',
    'direction',
    '--csv',
    '--filter',
    'date_insert ge 2025-06-02 and date_insert lt 2025-06-03',
  );
  expect(res.code).toBe(0);
  expect(res.stdout).toBe('date,direction,messages,segments,cost\n2025-06-02T00:00:00Z,,1,3,0.01\n');
});

test("the API's refusal is the command's: exit 1, the parameter named", async () => {
  const res = await patchbay('--token', p.token, 'records', 'usage', '--group-by', 'week');
  expect(res.code).toBe(1);
  expect(res.stderr).toContain('group_by');
});
