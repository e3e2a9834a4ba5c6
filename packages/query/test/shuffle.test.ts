/**
 * `order=shuffle`: a seeded, stable permutation (shuffle.ts), and runList's pages over the real
 * embedded store following `next`/`previous`, which carry the seed.
 */
import { randomUUID } from 'node:crypto';
import { BadRequestError } from '@patchbay/contracts';
import { SqliteDocStore } from '../../platform/src/doc-store/sqlite-doc-store';
import { defineListSpec } from '../src/fields';
import { runList, type ListSource } from '../src/run-list';
import { SEED_PATTERN, newShuffleSeed, shuffleSids } from '../src/shuffle';

interface Row extends Record<string, unknown> {
  sid: string;
  owner: string;
  n: number;
}
const spec = defineListSpec({
  fields: { sid: 'uuid', owner: 'uuid', n: 'integer' },
  defaultOrder: { field: 'n', dir: 'asc' },
  sidField: 'sid',
});
const BASE = 'https://api.example.com/core/v2/things';
const OWNER = randomUUID();
const sids = Array.from({ length: 57 }, () => randomUUID());

let store: SqliteDocStore;
let coll: ListSource<Row>;
beforeAll(async () => {
  store = new SqliteDocStore();
  const c = store.collection<Row>('things');
  await c.insertMany([
    ...sids.map((sid, n) => ({ sid, owner: OWNER, n })),
    { sid: randomUUID(), owner: randomUUID(), n: 99 },
  ]);
  coll = c;
});
afterAll(() => store.close());

const queryOf = (url: string): Record<string, string> => Object.fromEntries(new URL(url).searchParams);
const page = (url: string) =>
  runList({
    collection: coll,
    baseFilter: { owner: OWNER },
    query: queryOf(url),
    spec,
    url,
    serialize: (r: Row) => ({ n: r.n, sid: r.sid }),
  });
const sidsOf = (items: Array<Record<string, unknown>>) => items.map((i) => i.sid as string);

describe('shuffleSids', () => {
  it('is a permutation fixed by the seed', () => {
    const a = shuffleSids(sids, 'alpha');
    expect([...a].sort()).toEqual([...sids].sort());
    expect(shuffleSids([...sids].reverse(), 'alpha')).toEqual(a);
    expect(shuffleSids(sids, 'beta')).not.toEqual(a);
    expect(a).not.toEqual(sids);
  });
  it('keeps every other record in its relative place when one is added', () => {
    const extra = randomUUID();
    expect(shuffleSids([...sids, extra], 'alpha').filter((s) => s !== extra)).toEqual(shuffleSids(sids, 'alpha'));
  });
  it('draws URL-safe seeds, from the given randomness when there is one', () => {
    for (let i = 0; i < 20; i++) expect(newShuffleSeed()).toMatch(SEED_PATTERN);
    let x = 7;
    const random = () => {
      x = (x * 16807) % 2147483647;
      return x / 2147483647;
    };
    expect(newShuffleSeed(random)).toMatch(SEED_PATTERN);
    expect(newShuffleSeed(random)).not.toEqual(newShuffleSeed(random));
  });
});

describe('runList with order=shuffle', () => {
  it('following next visits every record exactly once; the seed is drawn once and carried', async () => {
    let env = await page(`${BASE}?order=shuffle&limit=8`);
    const seen = sidsOf(env.items);
    const seed = queryOf(env.pagination.next as string).seed;
    expect(seed).toMatch(SEED_PATTERN);
    let pages = 1;
    while (env.pagination.next) {
      expect(queryOf(env.pagination.next)).toMatchObject({ order: 'shuffle', seed, limit: '8' });
      env = await page(env.pagination.next);
      seen.push(...sidsOf(env.items));
      pages++;
    }
    expect(pages).toBe(Math.ceil(57 / 8));
    expect(seen).toHaveLength(57);
    expect(new Set(seen)).toEqual(new Set(sids));
    expect(seen).toEqual(shuffleSids(sids, seed));
  });

  it('previous goes back to the same page; a given seed gives the same order again', async () => {
    const first = await page(`${BASE}?order=shuffle&limit=10&seed=s33d`);
    const second = await page(first.pagination.next as string);
    const back = await page(second.pagination.previous as string);
    expect(sidsOf(back.items)).toEqual(sidsOf(first.items));
    expect(queryOf(second.pagination.previous as string)).toMatchObject({ seed: 's33d', offset: '0' });
    expect(sidsOf((await page(`${BASE}?order=shuffle&limit=10&offset=10&seed=s33d`)).items)).toEqual(
      sidsOf(second.items),
    );
    expect(sidsOf(first.items)).toEqual(shuffleSids(sids, 's33d').slice(0, 10));
  });

  it('refuses a malformed seed naming it; ignores seed without shuffle', async () => {
    const err = await page(`${BASE}?order=shuffle&seed=${encodeURIComponent('no spaces')}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).errors.map((e) => e.field)).toEqual(['seed']);
    const plain = await page(`${BASE}?order=n&limit=3&seed=${encodeURIComponent('no spaces')}`);
    expect(plain.items.map((i) => i.n)).toEqual([0, 1, 2]);
  });
});
