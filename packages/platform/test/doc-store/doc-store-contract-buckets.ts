import type { BucketQuery, BucketRow, Collection, Filter } from '../../src/doc-store/port';
import type { DocStoreKit } from './doc-store-contract';

const at = (iso: string) => new Date(iso);

/** Calls over three days of March 2026 (Paris is UTC+1 until the 29th, UTC+2 from it). */
const CALLS = [
  { p: 'a', at: at('2026-03-27T10:00:00Z'), cause: '200', secs: 60, price: 0.5, dir: 'inbound' },
  { p: 'a', at: at('2026-03-27T23:30:00Z'), cause: '486', secs: 0, price: 0, dir: 'outbound' }, // the 28th in Paris
  { p: 'a', at: at('2026-03-28T12:00:00Z'), cause: '200', secs: 90, price: 0.25, dir: 'inbound' },
  { p: 'a', at: at('2026-03-28T12:30:00Z'), cause: '200', secs: 30, price: null, dir: 'outbound' },
  { p: 'a', at: at('2026-03-29T22:30:00Z'), cause: '200', secs: 15, price: 0.125 }, // the 30th in Paris, no dir
  { p: 'b', at: at('2026-03-28T12:00:00Z'), cause: '200', secs: 999, price: 9, dir: 'inbound' }, // another partner
  { p: 'a', at: at('2026-02-01T00:00:00Z'), cause: '200', secs: 999, price: 9, dir: 'inbound' }, // before the range
];

const MEASURES: BucketQuery['measures'] = {
  calls: { count: true },
  answered: { count: true, where: { path: 'cause', value: '200' } },
  seconds: { sum: 'n.secs' },
  answeredSeconds: { sum: 'n.secs', where: { path: 'cause', value: '200' } },
  cost: { sum: 'n.price' },
};

const query = (over: Partial<BucketQuery> = {}): BucketQuery => ({
  dateField: 'at',
  unit: 'day',
  timeZone: 'UTC',
  from: at('2026-03-27T00:00:00Z'),
  to: at('2026-03-31T00:00:00Z'),
  measures: MEASURES,
  maxRows: 100,
  ...over,
});

const byStart = (rows: BucketRow[]) =>
  rows
    .map((r) => ({ ...r, start: r.start.toISOString() }))
    .sort((a, b) => a.start.localeCompare(b.start) || String(a.key).localeCompare(String(b.key)));

/**
 * bucketTotals: counts and sums per calendar bucket, in a time zone, per second key, over indexed
 * paths or not; the same rows whichever store computes them.
 */
export function describeBucketContract(kit: DocStoreKit, opts: { indexed?: boolean } = {}): void {
  let coll: Collection;
  beforeAll(async () => {
    coll = kit.coll();
    if (opts.indexed) await coll.createIndex({ p: 1, at: 1, cause: 1, 'n.secs': 1, 'n.price': 1, dir: 1 });
    await coll.insertMany(
      CALLS.map(({ secs, price, dir, ...c }) => ({ ...c, n: { secs, price }, ...(dir !== undefined && { dir }) })),
    );
  });
  const totals = (q: BucketQuery, filter: Filter = { p: 'a' }) => {
    if (!coll.bucketTotals) throw new Error('the adapter has no bucketTotals');
    return coll.bucketTotals(filter, q);
  };

  test('counts, conditional counts and sums per UTC day; empty days absent; null prices skipped', async () => {
    expect(byStart(await totals(query()))).toEqual([
      {
        start: '2026-03-27T00:00:00.000Z',
        values: { calls: 2, answered: 1, seconds: 60, answeredSeconds: 60, cost: 0.5 },
      },
      {
        start: '2026-03-28T00:00:00.000Z',
        values: { calls: 2, answered: 2, seconds: 120, answeredSeconds: 120, cost: 0.25 },
      },
      {
        start: '2026-03-29T00:00:00.000Z',
        values: { calls: 1, answered: 1, seconds: 15, answeredSeconds: 15, cost: 0.125 },
      },
    ]);
  });

  test('days of a time zone, across its DST change', async () => {
    const rows = byStart(await totals(query({ timeZone: 'Europe/Paris' })));
    expect(rows.map((r) => [r.start, r.values.calls, r.values.seconds])).toEqual([
      ['2026-03-26T23:00:00.000Z', 1, 60],
      ['2026-03-27T23:00:00.000Z', 3, 120],
      ['2026-03-29T22:00:00.000Z', 1, 15],
    ]);
  });

  test('months and hours', async () => {
    const months = await totals(query({ unit: 'month', from: at('2026-01-15T00:00:00Z') }));
    expect(byStart(months).map((r) => [r.start, r.values.calls])).toEqual([
      ['2026-02-01T00:00:00.000Z', 1],
      ['2026-03-01T00:00:00.000Z', 5],
    ]);
    const hours = await totals(
      query({ unit: 'hour', from: at('2026-03-28T12:00:00Z'), to: at('2026-03-28T14:00:00Z') }),
    );
    expect(byStart(hours).map((r) => [r.start, r.values.calls])).toEqual([['2026-03-28T12:00:00.000Z', 2]]);
  });

  test('a second key: one row per bucket and value, a missing value as null', async () => {
    const rows = byStart(await totals(query({ by: 'dir' })));
    expect(rows.map((r) => [r.start.slice(0, 10), r.key, r.values.calls])).toEqual([
      ['2026-03-27', 'inbound', 1],
      ['2026-03-27', 'outbound', 1],
      ['2026-03-28', 'inbound', 1],
      ['2026-03-28', 'outbound', 1],
      ['2026-03-29', null, 1],
    ]);
  });

  test('[from, to) cuts its first and last buckets: a document outside it is not counted', async () => {
    const rows = await totals(query({ from: at('2026-03-27T12:00:00Z'), to: at('2026-03-28T12:15:00Z') }));
    expect(byStart(rows).map((r) => [r.start, r.values.calls])).toEqual([
      ['2026-03-27T00:00:00.000Z', 1],
      ['2026-03-28T00:00:00.000Z', 1],
    ]);
  });

  test('the filter applies (any operator) and maxRows bounds the answer', async () => {
    const rows = await totals(query(), { p: 'a', cause: { $ne: '486' } });
    expect(rows.reduce((n, r) => n + r.values.calls, 0)).toBe(4);
    expect(await totals(query({ maxRows: 2 }))).toHaveLength(2);
  });
}
