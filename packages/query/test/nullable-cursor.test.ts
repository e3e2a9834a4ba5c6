/**
 * Cursors over an order field that some records leave null, on the real embedded store with the
 * compound index a records list has: walking with after and before, in both directions, visits
 * every record once, nulls first in ascending order and ties broken by sid.
 */
import { randomUUID } from 'node:crypto';
import { SqliteDocStore } from '../../platform/src/doc-store/sqlite-doc-store';
import { defineListSpec } from '../src/fields';
import { runList, type ListSource } from '../src/run-list';

interface Msg extends Record<string, unknown> {
  dr_sid: string;
  partner_sid: string;
  date_insert: Date;
  date_stop: Date | null;
}
const spec = defineListSpec({
  fields: { dr_sid: 'uuid', partner_sid: 'uuid', date_insert: 'date', date_stop: 'date' },
  defaultOrder: { field: 'date_insert', dir: 'asc' },
  sidField: 'dr_sid',
  cursor: { orderFields: ['date_insert', 'date_stop'], nullable: ['date_stop'] },
  countable: false,
});
const BASE = 'https://api.example.com/core/v2/sms/message_drs';
const P = randomUUID();
const at = (s: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, s));
// 90 records over 7 instants, one in six without date_stop; plus another partner's.
const mine: Msg[] = Array.from({ length: 90 }, (_, i) => ({
  dr_sid: randomUUID(),
  partner_sid: P,
  date_insert: at(i),
  date_stop: i % 6 === 0 ? null : at((i * 5) % 7),
}));

/** date_stop asc with nulls first, then dr_sid. */
function expected(dir: 'asc' | 'desc'): string[] {
  const t = (m: Msg) => (m.date_stop === null ? -Infinity : m.date_stop.getTime());
  const asc = [...mine].sort((a, b) => t(a) - t(b) || (a.dr_sid < b.dr_sid ? -1 : 1)).map((m) => m.dr_sid);
  return dir === 'asc' ? asc : asc.reverse();
}

let store: SqliteDocStore;
let coll: ListSource<Msg>;
beforeAll(async () => {
  store = new SqliteDocStore();
  const c = store.collection<Msg>('message_drs');
  await c.createIndex({ partner_sid: 1, dr_sid: 1 }, { unique: true });
  await c.createIndex({ partner_sid: 1, date_stop: 1, dr_sid: 1 });
  await c.insertMany([
    ...mine,
    { dr_sid: mine[1].dr_sid, partner_sid: randomUUID(), date_insert: at(0), date_stop: null },
  ]);
  coll = c;
});
afterAll(() => store.close());

const queryOf = (url: string): Record<string, string> => Object.fromEntries(new URL(url).searchParams);
const page = (url: string) =>
  runList({
    collection: coll,
    baseFilter: { partner_sid: P },
    query: queryOf(url),
    spec,
    url,
    serialize: (m: Msg) => ({ dr_sid: m.dr_sid }),
  });
const sids = (items: Array<Record<string, unknown>>) => items.map((i) => i.dr_sid as string);

describe.each(['asc', 'desc'] as const)('order=date_stop %s', (dir) => {
  const order = `date_stop ${dir}`;

  it('after, from the first record, walks to the end through next', async () => {
    const want = expected(dir);
    const seen = [want[0]];
    let env = await page(`${BASE}?${new URLSearchParams({ order, limit: '7', after: want[0] })}`);
    for (;;) {
      seen.push(...sids(env.items));
      if (!env.pagination.next) break;
      env = await page(env.pagination.next);
    }
    expect(seen).toEqual(want);
  });

  it('before, from the last record, walks to the start through previous', async () => {
    const want = expected(dir);
    const chunks: string[][] = [[want[want.length - 1]]];
    let env = await page(`${BASE}?${new URLSearchParams({ order, limit: '11', before: want[want.length - 1] })}`);
    for (;;) {
      chunks.unshift(sids(env.items));
      if (!env.pagination.previous) break;
      env = await page(env.pagination.previous);
    }
    expect(chunks.flat()).toEqual(want);
  });

  it('a cursor on a record without date_stop pages from its place among the nulls', async () => {
    const want = expected(dir);
    const nullSid = mine
      .filter((m) => m.date_stop === null)
      .map((m) => m.dr_sid)
      .sort()[2];
    const i = want.indexOf(nullSid);
    expect(sids((await page(`${BASE}?${new URLSearchParams({ order, limit: '5', after: nullSid })}`)).items)).toEqual(
      want.slice(i + 1, i + 6),
    );
    expect(sids((await page(`${BASE}?${new URLSearchParams({ order, limit: '5', before: nullSid })}`)).items)).toEqual(
      want.slice(Math.max(0, i - 5), i),
    );
  });

  it('after the last record is an empty page', async () => {
    const want = expected(dir);
    expect(await page(`${BASE}?${new URLSearchParams({ order, after: want[want.length - 1] })}`)).toMatchObject({
      count: 0,
      pagination: {},
    });
  });
});
