/**
 * runList end to end over the real embedded store (NeDB, in memory), so the compiled filters,
 * sorts and cursor filters are checked by the store that runs them.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { BadRequestError } from '@patchbay/contracts';
import { SqliteDocStore } from '../../platform/src/doc-store/sqlite-doc-store';
import { defineListSpec } from '../src/fields';
import { runList, type ListSource } from '../src/run-list';

interface Dr extends Record<string, unknown> {
  dr_sid: string;
  partner_sid: string;
  date_stop: Date;
  duration: number;
  direction: string;
  flags: number;
}

const callDrs = defineListSpec({
  fields: {
    dr_sid: 'uuid',
    partner_sid: 'uuid',
    date_stop: 'date',
    duration: 'integer',
    direction: 'string',
    flags: 'integer',
  },
  defaultOrder: { field: 'date_stop', dir: 'desc' },
  sidField: 'dr_sid',
  cursor: { orderFields: ['date_stop'] },
  countable: false,
});
const countableDrs = defineListSpec({ ...callDrs, countable: true });
const BASE = 'https://api.example.com/core/v2/calls/call_drs';
const P1 = randomUUID();
const P2 = randomUUID();

const serialize = (d: Dr) => ({
  date_stop: d.date_stop.toISOString(),
  direction: d.direction,
  dr_sid: d.dr_sid,
  duration: d.duration,
  flags: d.flags,
  partner_sid: d.partner_sid,
});
const sidOf = (item: Record<string, unknown>): string => item.dr_sid as string;
const queryOf = (url: string): Record<string, string> => Object.fromEntries(new URL(url).searchParams);

/** Records with many equal dates, so the sid tie-breaker matters. */
function makeDrs(partner: string, n: number, seed = 0): Dr[] {
  return Array.from({ length: n }, (_, i) => ({
    dr_sid: randomUUID(),
    partner_sid: partner,
    date_stop: new Date(Date.UTC(2024, 0, 1 + ((i * 7 + seed) % 5), 0, 0, 0, (i * 13) % 3)),
    duration: (i * 37 + seed) % 20,
    direction: i % 2 ? 'inbound' : 'outbound',
    flags: i % 8,
  }));
}
/** The total order runList must follow: date, then sid, both in `dir`. */
function sorted(drs: Dr[], dir: 'asc' | 'desc'): string[] {
  const s = dir === 'asc' ? 1 : -1;
  return [...drs]
    .sort((a, b) => s * (a.date_stop.getTime() - b.date_stop.getTime() || (a.dr_sid < b.dr_sid ? -1 : 1)))
    .map((d) => d.dr_sid);
}

let store: SqliteDocStore;
let coll: ListSource<Dr>;
let mine: Dr[];
const list = (query: Record<string, string>, spec = callDrs, url = BASE) =>
  runList({
    collection: coll,
    baseFilter: { partner_sid: P1 },
    query,
    spec,
    url: `${url}?${new URLSearchParams(query)}`,
    serialize,
  });

beforeAll(async () => {
  store = new SqliteDocStore();
  const c = store.collection<Dr>('call_drs');
  mine = makeDrs(P1, 23);
  await c.insertMany([...mine, ...makeDrs(P2, 5)]);
  coll = c;
});
afterAll(() => store.close());

async function badField(p: Promise<unknown>): Promise<string | null> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BadRequestError);
  return (e as BadRequestError).errors[0].field;
}

describe('runList: offset mode', () => {
  it('returns the envelope, the base filter applied, default order and limit', async () => {
    const env = await list({}, countableDrs);
    expect(Object.keys(env)).toEqual(['count', 'has_more', 'items', 'limit', 'offset', 'pagination', 'total']);
    expect(env).toMatchObject({ count: 10, has_more: true, limit: 10, offset: 0, total: 23 });
    expect(env.items.map(sidOf)).toEqual(sorted(mine, 'desc').slice(0, 10));
    expect(queryOf(env.pagination.next as string)).toEqual({ offset: '10' });
    expect(env.pagination.previous).toBeUndefined();
  });
  it('gives total null for an uncountable list', async () => {
    expect((await list({})).total).toBeNull();
  });
  it('pages by offset with next/previous and stops at the end', async () => {
    const env = await list({ limit: '10', offset: '20', order: 'date_stop asc' }, countableDrs);
    expect(env.items.map(sidOf)).toEqual(sorted(mine, 'asc').slice(20));
    expect(env).toMatchObject({ count: 3, has_more: false, offset: 20, total: 23 });
    expect(Object.keys(env.pagination)).toEqual(['previous']);
    expect(queryOf(env.pagination.previous as string)).toEqual({ limit: '10', offset: '10', order: 'date_stop asc' });
  });
  it('filters, orders by another field with the sid as tie-breaker, and selects fields', async () => {
    const env = await list(
      {
        filter: 'duration ge 10 and direction eq inbound and flags bit 3',
        order: 'duration desc',
        include_fields: 'dr_sid,duration',
        limit: '100',
      },
      countableDrs,
    );
    const expected = mine
      .filter((d) => d.duration >= 10 && d.direction === 'inbound' && (d.flags & 3) !== 0)
      .sort((a, b) => b.duration - a.duration || (a.dr_sid < b.dr_sid ? 1 : -1));
    expect(env.items).toEqual(expected.map((d) => ({ dr_sid: d.dr_sid, duration: d.duration })));
    expect(env.total).toBe(expected.length);
    expect(env.pagination).toEqual({});
  });
  it('compares dates as instants, whatever form they are written in', async () => {
    const day2 = mine.filter(
      (d) => d.date_stop >= new Date('2024-01-02T00:00:00Z') && d.date_stop < new Date('2024-01-03T00:00:00Z'),
    );
    const env = await list(
      { filter: "date_stop ge 2024-01-02 and date_stop lt '2024-01-03T01:00:00+01:00'", limit: '100' },
      countableDrs,
    );
    expect(env.items.map(sidOf).sort()).toEqual(day2.map((d) => d.dr_sid).sort());
  });
  it.each([
    ['date_stop eq 2024-01-02T00:00:00.001Z', (d: Dr) => d.date_stop.getTime() === Date.UTC(2024, 0, 2, 0, 0, 0, 1)],
    [
      'date_stop in (2024-01-02T00:00:00.001Z, "2024-01-03")',
      (d: Dr) => [Date.UTC(2024, 0, 2, 0, 0, 0, 1), Date.UTC(2024, 0, 3)].includes(d.date_stop.getTime()),
    ],
    ['date_stop ne 2024-01-01T00:00:00Z', (d: Dr) => d.date_stop.getTime() !== Date.UTC(2024, 0, 1)],
    ['direction like "in%"', (d: Dr) => d.direction.startsWith('in')],
    ['direction like "%bound" and direction ilike "OUT%"', (d: Dr) => d.direction === 'outbound'],
    ['direction like in_', () => false],
    ['duration notin (1, 2, 3) and duration ne 4', (d: Dr) => ![1, 2, 3, 4].includes(d.duration)],
    ['direction ne null and flags bit 4', (d: Dr) => (d.flags & 4) !== 0],
    ['direction eq null', () => false],
  ])('runs %j on the store with the meaning of the grammar', async (filter, keep) => {
    const env = await list({ filter, limit: '1000' }, countableDrs);
    expect(env.items.map(sidOf).sort()).toEqual(
      mine
        .filter(keep)
        .map((d) => d.dr_sid)
        .sort(),
    );
  });
  it('shuffles with the given randomness, within the base filter', async () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const env = await runList({
      collection: coll,
      baseFilter: { partner_sid: P1 },
      query: { order: 'shuffle', limit: '23' },
      spec: countableDrs,
      url: BASE,
      serialize,
      random,
    });
    expect(env).toMatchObject({ count: 23, has_more: false, total: 23 });
    expect(env.items.map(sidOf).sort()).toEqual(mine.map((d) => d.dr_sid).sort());
    expect(env.items.map(sidOf)).not.toEqual(sorted(mine, 'desc'));
    const small = await list({ order: 'shuffle', limit: '5' });
    expect(small).toMatchObject({ count: 5, has_more: true });
  });
});

describe('runList: after/before', () => {
  it('walks forward with next URLs through every record exactly once, then stops', async () => {
    const seen: string[] = [];
    let env = await list({ after: sorted(mine, 'desc')[0], limit: '4' });
    seen.push(sorted(mine, 'desc')[0]);
    for (;;) {
      seen.push(...env.items.map(sidOf));
      if (!env.pagination.next) break;
      expect(queryOf(env.pagination.next).offset).toBeUndefined();
      env = await runList({
        collection: coll,
        baseFilter: { partner_sid: P1 },
        query: queryOf(env.pagination.next),
        spec: callDrs,
        url: env.pagination.next,
        serialize,
      });
    }
    expect(seen).toEqual(sorted(mine, 'desc'));
    expect(env.has_more).toBe(false);
    expect(env.offset).toBe(0);
    expect(env.total).toBeNull();
  });
  it('gives a full page of an uncounted list next, leading to an empty page without next', async () => {
    // 20 records after asc[2]: five full pages of 4, as the publisher's downloader pages them
    // (follow `next` while count == limit, stop at count 0).
    const asc = sorted(mine, 'asc');
    const seen: string[] = [];
    let env = await list({ after: asc[2], order: 'date_stop asc', limit: '4' });
    let pages = 1;
    while (env.count === env.limit) {
      seen.push(...env.items.map(sidOf));
      expect(env.pagination.next).toEqual(expect.any(String));
      env = await list(queryOf(env.pagination.next as string));
      pages += 1;
    }
    expect(seen).toEqual(asc.slice(3));
    expect(pages).toBe(6);
    expect(env).toMatchObject({ count: 0, items: [], has_more: false, pagination: {} });
  });
  it('keeps next off the last full page of a counted list', async () => {
    const asc = sorted(mine, 'asc');
    const env = await list({ after: asc[18], order: 'date_stop asc', limit: '4' }, countableDrs);
    expect(env.count).toBe(4);
    expect(env.total).toBe(23);
    expect(env.pagination.next).toBeUndefined();
  });
  it('gives an empty page, never a restart, after the last record', async () => {
    const env = await list({ after: sorted(mine, 'asc')[22], order: 'date_stop asc' });
    expect(env).toEqual({ count: 0, has_more: false, items: [], limit: 10, offset: 0, pagination: {}, total: null });
  });
  it('reads backwards from before, returning items in list order', async () => {
    const asc = sorted(mine, 'asc');
    const env = await list({ before: asc[10], order: 'date_stop asc', limit: '3' });
    expect(env.items.map(sidOf)).toEqual(asc.slice(7, 10));
    expect(env.has_more).toBe(true);
    expect(queryOf(env.pagination.previous as string)).toEqual({ order: 'date_stop asc', limit: '3', before: asc[7] });
    expect(queryOf(env.pagination.next as string)).toEqual({ order: 'date_stop asc', limit: '3', after: asc[9] });
  });
  it('serves an after+before window, next keeping before', async () => {
    const asc = sorted(mine, 'asc');
    const env = await list({ after: asc[2], before: asc[9], order: 'date_stop', limit: '4' });
    expect(env.items.map(sidOf)).toEqual(asc.slice(3, 7));
    expect(queryOf(env.pagination.next as string)).toMatchObject({ after: asc[6], before: asc[9] });
    const rest = await list(queryOf(env.pagination.next as string));
    expect(rest.items.map(sidOf)).toEqual(asc.slice(7, 9));
    expect(rest.has_more).toBe(false);
    expect(rest.pagination.next).toBeUndefined();
  });
  it('accepts a cursor that the filter excludes', async () => {
    const asc = sorted(mine, 'asc');
    const outbound = mine.filter((d) => d.direction === 'outbound').map((d) => d.dr_sid);
    const cursor = asc.find((s) => !outbound.includes(s)) as string;
    const env = await list({ after: cursor, order: 'date_stop asc', filter: 'direction eq outbound', limit: '100' });
    expect(env.items.map(sidOf)).toEqual(asc.slice(asc.indexOf(cursor) + 1).filter((s) => outbound.includes(s)));
  });
  it("refuses an unknown sid, or another partner's, naming the parameter", async () => {
    expect(await badField(list({ after: randomUUID() }))).toBe('after');
    const other = (await coll.find({ partner_sid: P2 }))[0].dr_sid;
    expect(await badField(list({ before: other }))).toBe('before');
  });
  it('refuses offset and other orders with a cursor, and cursors on an offset-only list', async () => {
    const sid = mine[0].dr_sid;
    expect(await badField(list({ after: sid, offset: '3' }))).toBe('offset');
    expect(await badField(list({ after: sid, order: 'duration' }))).toBe('order');
    const offsetOnly = defineListSpec({ ...countableDrs, cursor: undefined });
    expect(await badField(list({ after: sid }, offsetOnly))).toBe('after');
  });
});

describe('runList properties', () => {
  it(
    'following next, then previous, visits the filtered list exactly once ' + 'each way (offset and cursor modes)',
    async () => {
      const p3 = randomUUID();
      const drs = makeDrs(p3, 40, 3);
      await store.collection<Dr>('call_drs').insertMany(drs);
      const run = (url: string) =>
        runList({
          collection: coll,
          baseFilter: { partner_sid: p3 },
          query: queryOf(url),
          spec: countableDrs,
          url,
          serialize,
        });
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 0, max: 19 }),
          fc.constantFrom('asc', 'desc'),
          fc.constantFrom('offset', 'after'),
          async (limit, minDuration, dir, mode) => {
            const expected = sorted(
              drs.filter((d) => d.duration >= minDuration),
              dir,
            );
            const first = sorted(drs, dir)[0]; // the first record of the unfiltered list: the starting cursor
            const query: Record<string, string> = {
              limit: String(limit),
              order: `date_stop ${dir}`,
              filter: `duration ge ${minDuration}`,
            };
            if (mode === 'after') query.after = first;
            let env = await run(`${BASE}?${new URLSearchParams(query)}`);
            expect(env.total).toBe(expected.length);
            const forward = env.items.map(sidOf);
            while (env.pagination.next) {
              expect(env.has_more).toBe(true);
              env = await run(env.pagination.next);
              forward.push(...env.items.map(sidOf));
            }
            expect(env.has_more).toBe(false);
            expect(forward).toEqual(mode === 'after' ? expected.filter((s) => s !== first) : expected);
            if (forward.length === 0) return; // an empty page has no anchor to go back from
            const backward = env.items.map(sidOf).reverse();
            while (env.pagination.previous) {
              env = await run(env.pagination.previous);
              backward.push(...env.items.map(sidOf).reverse());
            }
            expect(backward.reverse()).toEqual(expected);
          },
        ),
        { numRuns: 60 },
      );
    },
  );
});
