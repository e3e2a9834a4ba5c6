/**
 * The hourly usage rollups (src/usage/) on an in-memory store, through the records' own handlers: an
 * ingest marks its days dirty, an answer is the same before and after the roller recomputed them (dirty
 * days are read from the records, clean ones from the rollups, the parts of hours at the range's ends from
 * the records), the rollups really are what a clean day is read from, and the first start marks the days
 * of records stored before rollups existed.
 */
import { randomUUID } from 'node:crypto';
import { Subjects, type GatewayRequest } from '@patchbay/contracts';
import { SqliteDocStore, createLogger } from '@patchbay/platform';
import { ListGate } from '@patchbay/query';
import { callRecordHandlers } from '../../src/handlers/detail-records';
import { usageHandlers } from '../../src/handlers/usage';
import { openRecordsRepo, type RecordsRepo } from '../../src/repo';
import { backfillUsage, recomputeDay } from '../../src/usage/usage-rollups';

const LISTS = { largeOver: 1000, perPartner: 2, total: 3 };
const A = randomUUID();
const principal = (partner: string) => ({ partner_sid: partner, login: 't', scopes: [], token_sid: null });
const usageRequest = (query: Record<string, string>): GatewayRequest => ({
  principal: principal(A),
  params: {},
  query,
  body: undefined,
  url: 'http://x/core/v2/calls/call_drs/usage',
});
const RANGE = 'date_stop ge 2025-06-01T00:30:00Z and date_stop lt 2025-06-04T12:30:00Z';

let docs: SqliteDocStore;
let repo: RecordsRepo;
let calls: ReturnType<typeof callRecordHandlers>;
let usage: ReturnType<typeof usageHandlers>;

const ingest = (stops: string[]) =>
  calls[Subjects.records.callIngest]({
    principal: principal(A),
    first_position: 0,
    records: stops.map((stop, i) => ({
      dr_sid: randomUUID(),
      date_start: stop,
      date_stop: stop,
      sipcause: i % 2 ? '486' : '200',
      duration_billing: String(30 * (i + 1)),
      price: '0.01',
    })),
  });
const answer = async (query: Record<string, string>) =>
  (await usage[Subjects.records.callUsage](usageRequest(query))) as { items: Array<Record<string, unknown>> };
/** What the roller does: every dirty day recomputed. */
const roll = async () => {
  for (const mark of await repo.usage.dirty.find({})) await recomputeDay(repo.usage, repo.callDrs, mark);
};

beforeEach(async () => {
  docs = new SqliteDocStore();
  repo = await openRecordsRepo(docs);
  const log = createLogger({ name: 'usage-test', level: 'silent' });
  calls = callRecordHandlers({
    repo,
    log,
    settings: { cdrDefaultLimit: 10, largeLists: LISTS },
    lists: new ListGate(LISTS),
  });
  usage = usageHandlers({ repo });
});
afterEach(() => docs.close());

test('an answer is the same from the records (days dirty) and from the rollups (days clean), in any zone', async () => {
  await backfillUsage(repo.usage, 'call_drs', repo.callDrs);
  expect(
    await ingest([
      '2025-06-01T00:10:00Z', // before the range
      '2025-06-01T00:45:00Z', // in the range's first, partial hour
      '2025-06-01T13:00:00Z',
      '2025-06-02T23:30:00Z', // 3 June in Paris
      '2025-06-03T08:00:00Z',
      '2025-06-04T12:10:00Z', // the last whole hour
      '2025-06-04T12:40:00Z', // in the last, partial hour: after the range
    ]),
  ).toMatchObject({ stored: 7 });
  const queries: Array<Record<string, string>> = [
    { group_by: 'day', filter: RANGE },
    { group_by: 'day', tz: 'Europe/Paris', filter: RANGE },
    { group_by: 'hour', tz: 'America/New_York', filter: RANGE },
    { group_by: 'month', filter: RANGE },
  ];
  expect(await repo.usage.dirty.countDocuments({})).toBe(4);
  const fromRecords = await Promise.all(queries.map(answer));
  expect(fromRecords[0].items.map((i) => i.calls)).toEqual([2, 1, 1, 1]);
  await roll();
  expect(await repo.usage.dirty.countDocuments({})).toBe(0);
  expect(await repo.usage.hours.call_drs.countDocuments({ partner_sid: A })).toBe(5);
  expect(await Promise.all(queries.map(answer))).toEqual(fromRecords);
});

test('a clean day is read from its rollups; a day stored to again, from its records until recomputed', async () => {
  await backfillUsage(repo.usage, 'call_drs', repo.callDrs);
  await ingest(['2025-06-01T10:00:00Z', '2025-06-02T10:00:00Z']);
  await roll();
  const day = { group_by: 'day', filter: 'date_stop ge 2025-06-01 and date_stop lt 2025-06-03' };
  expect((await answer(day)).items.map((i) => i.calls)).toEqual([1, 1]);
  // The rollups are what the answer reads: an hour changed behind the roller's back shows.
  await repo.usage.hours.call_drs.updateOne({ partner_sid: A, day: '2025-06-01' }, { $set: { calls: 40 } });
  expect((await answer(day)).items.map((i) => i.calls)).toEqual([40, 1]);
  // A second key, or a filter on another field, is answered from the records alone.
  expect((await answer({ ...day, group_by: 'day,direction' })).items.map((i) => i.calls)).toEqual([1, 1]);
  await ingest(['2025-06-01T11:00:00Z']);
  expect((await answer(day)).items.map((i) => i.calls)).toEqual([2, 1]);
  await roll();
  expect((await answer(day)).items.map((i) => i.calls)).toEqual([2, 1]);
});

test('the first start marks the days of the records stored before rollups; until then the records answer', async () => {
  for (const [partner, at] of [
    [A, '2025-06-01T10:00:00Z'],
    [A, '2025-06-03T10:00:00Z'],
    [randomUUID(), '2025-06-02T10:00:00Z'],
  ])
    await repo.callDrs.insertOne({
      dr_sid: randomUUID(),
      partner_sid: partner,
      date_stop: new Date(at),
      date_insert: new Date(),
      numeric: {},
    });
  const day = { group_by: 'day', filter: 'date_stop ge 2025-06-01 and date_stop lt 2025-06-04' };
  expect((await answer(day)).items.map((i) => i.calls)).toEqual([1, 0, 1]);
  await backfillUsage(repo.usage, 'call_drs', repo.callDrs);
  expect((await repo.usage.dirty.find({}, { sort: { day: 1 } })).map((d) => d.day)).toEqual([
    '2025-06-01',
    '2025-06-02',
    '2025-06-03',
  ]);
  expect((await repo.usage.state.findOne({ kind: 'call_drs' }))?.backfilled).toBe(true);
  await roll();
  expect((await answer(day)).items.map((i) => i.calls)).toEqual([1, 0, 1]);
});
