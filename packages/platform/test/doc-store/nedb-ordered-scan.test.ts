/**
 * The NeDB adapter's ordered index scan: it must return exactly what NeDB's own plan returns (checked
 * against an unindexed twin collection, by property), and cost what a page costs, not the collection.
 */
import fc from 'fast-check';
import { NedbDocStore } from '../../src/doc-store/nedb-doc-store';
import { openNedbFile, type NedbFile } from '../../src/doc-store/nedb-internals';
import { orderedScan } from '../../src/doc-store/nedb-ordered-scan';
import { toNedbQuery } from '../../src/doc-store/nedb-query';
import type { Collection, Doc, Filter, FindOptions, Sort } from '../../src/doc-store/port';

const DAY = Date.UTC(2024, 0, 1);
const at = (i: number) => new Date(DAY + i * 1000);
const sidOf = (i: number) => `s${String(i).padStart(5, '0')}`;

describe('toNedbQuery lifts $and clauses to the top level', () => {
  test('so NeDB can pick an index for them', () => {
    expect(toNedbQuery({ $and: [{ a: 1 }, { $and: [{ b: { $gt: 2 } }] }] })).toEqual({ a: 1, b: { $gt: 2 } });
    // A path given twice keeps both conditions (the second inside $and).
    expect(toNedbQuery({ $and: [{ a: { $gt: 1 } }, { a: { $lt: 5 } }] })).toEqual({
      a: { $gt: 1 },
      $and: [{ a: { $lt: 5 } }],
    });
  });
});

describe('ordered scan: same results as NeDB without indexes', () => {
  let store: NedbDocStore;
  beforeAll(() => {
    store = new NedbDocStore();
  });
  afterAll(() => store.close());
  let n = 0;

  /** A document: ties on `d` are frequent, `d` is sometimes missing or of another type. */
  const docArb = fc.record({
    p: fc.constantFrom('p1', 'p2', 'p3'),
    d: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: 40 }).map(at) },
      fc.constant(undefined),
      fc.integer({ min: 0, max: 5 }),
    ),
  });
  const bound = fc.integer({ min: 0, max: 40 }).map(at);
  const cursorArb = fc.record({
    v: bound,
    s: fc.integer({ min: 0, max: 400 }).map(sidOf),
    forward: fc.boolean(),
    nulls: fc.boolean(),
  });
  const filterArb = fc.record({
    partner: fc.option(fc.constantFrom('p1', 'p2'), { nil: undefined }),
    range: fc.option(fc.record({ op: fc.constantFrom('$gt', '$gte', '$lt', '$lte', '$eq'), v: bound }), {
      nil: undefined,
    }),
    second: fc.option(fc.record({ op: fc.constantFrom('$gt', '$lt'), v: bound }), { nil: undefined }),
    cursor: fc.option(cursorArb, { nil: undefined }),
  });

  interface FilterSpec {
    partner?: string;
    range?: { op: string; v: Date };
    second?: { op: string; v: Date };
    cursor?: { v: Date; s: string; forward: boolean; nulls: boolean };
  }
  /**
   * Partner equality, one or two ranges on `d` (separate clauses), and a cursor bound, each
   * optional; a backward cursor may admit null values too (as one on a nullable field does).
   */
  function buildFilter(f: FilterSpec): Filter {
    const parts: Filter[] = [];
    if (f.partner) parts.push({ p: f.partner });
    if (f.range) parts.push({ d: { [f.range.op]: f.range.v } });
    if (f.second) parts.push({ d: { [f.second.op]: f.second.v } });
    if (f.cursor) {
      const op = f.cursor.forward ? '$gt' : '$lt';
      const branches: Filter[] = [{ d: { [op]: f.cursor.v } }, { d: { $eq: f.cursor.v }, sid: { [op]: f.cursor.s } }];
      if (f.cursor.nulls && !f.cursor.forward) branches.push({ d: null });
      parts.push({ $or: branches });
    }
    return parts.length === 0 ? {} : parts.length === 1 ? parts[0] : { $and: parts };
  }

  async function twins(docs: Doc[], compound: boolean): Promise<[Collection, Collection]> {
    const indexed = store.collection(`scan${n}`);
    const plain = store.collection(`plain${n++}`);
    await indexed.createIndex({ sid: 1 }, { unique: true });
    await indexed.createIndex(compound ? { p: 1, d: 1, sid: 1 } : { d: 1 });
    await indexed.insertMany(docs);
    await plain.insertMany(docs);
    return [indexed, plain];
  }

  test('sorted pages (sort on the indexed key, then the sid) are identical', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(docArb, { minLength: 150, maxLength: 400 }),
        fc.boolean(),
        filterArb,
        fc.constantFrom<1 | -1>(1, -1),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 25 }),
        async (raw, compound, f, dir, skip, limit) => {
          const docs = raw.map((d, i) => ({ ...d, sid: sidOf(i) }));
          const [indexed, plain] = await twins(docs, compound);
          const opts: FindOptions = { sort: { d: dir, sid: dir } as Sort, skip, limit };
          const filter = buildFilter(f);
          const got = (await indexed.find(filter, opts)).map((d) => d.sid);
          const want = (await plain.find(filter, opts)).map((d) => d.sid);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('unsorted probes return matching documents, as many as NeDB would', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(docArb, { minLength: 150, maxLength: 400 }),
        fc.boolean(),
        filterArb,
        fc.integer({ min: 1, max: 5 }),
        async (raw, compound, f, limit) => {
          const docs = raw.map((d, i) => ({ ...d, sid: sidOf(i) }));
          const [indexed, plain] = await twins(docs, compound);
          const filter = buildFilter(f);
          const all = new Set((await plain.find(filter)).map((d) => d.sid));
          const got = (await indexed.find(filter, { limit })).map((d) => d.sid);
          expect(got.length).toBe(Math.min(limit, all.size));
          for (const sid of got) expect(all.has(sid)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a sort key holding arrays falls back to NeDB (same results, each document once)', async () => {
    const docs = Array.from({ length: 200 }, (_, i) => ({
      sid: sidOf(i),
      d: i % 10 === 0 ? [at(i % 7), at(30)] : at(i % 13),
    }));
    const [indexed, plain] = await twins(docs, false);
    for (const dir of [1, -1] as const) {
      const opts: FindOptions = { sort: { d: dir, sid: 1 }, limit: 15 };
      expect((await indexed.find({ d: { $gte: at(3) } }, opts)).map((d) => d.sid)).toEqual(
        (await plain.find({ d: { $gte: at(3) } }, opts)).map((d) => d.sid),
      );
    }
  });

  test('projection and deep copies still apply', async () => {
    const docs = Array.from({ length: 200 }, (_, i) => ({ sid: sidOf(i), d: at(i), p: 'p1', nested: { k: i } }));
    const [indexed] = await twins(docs, true);
    const [first] = await indexed.find(
      { p: 'p1' },
      { sort: { d: -1, sid: -1 }, limit: 1, projection: { sid: 1, 'nested.k': 1 } },
    );
    expect(first).toEqual({ sid: sidOf(199), nested: { k: 199 } });
    const [again] = await indexed.find({ p: 'p1' }, { sort: { d: -1, sid: -1 }, limit: 1 });
    (again.nested as { k: number }).k = -1;
    expect((await indexed.findOne({ sid: sidOf(199) }))?.nested).toEqual({ k: 199 });
  });
});

describe('ordered scan: a page costs the page, wherever it is', () => {
  const N = 20_000;
  let file: NedbFile;
  beforeAll(async () => {
    file = openNedbFile(undefined);
    await file.load();
    // Two partners interleaved; every 4 records share a timestamp.
    await file.insert(
      Array.from({ length: N }, (_, i) => ({ sid: sidOf(i), p: i % 2 ? 'p1' : 'p2', d: at(Math.floor(i / 4)) })),
    );
    await file.ensureIndex(['sid'], { unique: true, sparse: false });
    await file.ensureIndex(['p', 'd', 'sid'], { unique: false, sparse: false });
  });

  const scan = (filter: Filter, opts: FindOptions) =>
    file.exclusive(() => orderedScan(file, filter, toNedbQuery(filter), opts));
  const after = (i: number): Filter => ({
    $and: [
      { p: 'p1' },
      { $or: [{ d: { $gt: at(Math.floor(i / 4)) } }, { d: { $eq: at(Math.floor(i / 4)) }, sid: { $gt: sidOf(i) } }] },
    ],
  });

  test.each([1, 5_001, 19_001])(
    'a forward page after record %i visits about twice its size (two partners)',
    async (i) => {
      const res = await scan(after(i), { sort: { d: 1, sid: 1 }, limit: 11 });
      expect(res?.docs).toHaveLength(11);
      expect(res?.docs[0].sid).toBe(sidOf(i + 2));
      expect(res?.visited).toBeLessThanOrEqual(2 * 11 + 8);
    },
  );

  test('an existence probe before a record stops at the first match', async () => {
    const before: Filter = {
      $and: [{ p: 'p1' }, { $or: [{ d: { $lt: at(3000) } }, { d: { $eq: at(3000) }, sid: { $lt: sidOf(12_001) } }] }],
    };
    const res = await scan(before, { limit: 1 });
    expect(res?.docs).toHaveLength(1);
    expect(res?.visited).toBeLessThanOrEqual(8);
  });

  test('a backward page that also admits null values (a nullable cursor field) walks down from its bound', async () => {
    const i = 12_001;
    const before: Filter = {
      $and: [
        { p: 'p1' },
        { $or: [{ d: { $lt: at(3000) } }, { d: { $eq: at(3000) }, sid: { $lt: sidOf(i) } }, { d: null }] },
      ],
    };
    const res = await scan(before, { sort: { d: -1, sid: -1 }, limit: 11 });
    expect(res?.docs).toHaveLength(11);
    expect(res?.docs[0].sid).toBe(sidOf(i - 2));
    expect(res?.visited).toBeLessThanOrEqual(2 * 11 + 8);
  });

  test('an equality on a unique index is left to NeDB', async () => {
    expect(await scan({ $and: [{ p: 'p1' }, { sid: sidOf(7) }] }, { limit: 1 })).toBeUndefined();
  });
});
