/**
 * `$in` over a compound index's keys in the NeDB adapter: the same documents as NeDB's own plan
 * (checked against an unindexed twin), read from one index entry per value instead of the whole
 * collection.
 */
import fc from 'fast-check';
import { NedbDocStore } from '../../src/doc-store/nedb-doc-store';
import { compoundInCandidates } from '../../src/doc-store/nedb-compound-in';
import { openNedbFile } from '../../src/doc-store/nedb-internals';
import { toNedbQuery } from '../../src/doc-store/nedb-query';

const sidOf = (i: number) => `s${String(i).padStart(5, '0')}`;

test('finds what NeDB finds, sorted, skipped and limited alike', async () => {
  const store = new NedbDocStore();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          p: fc.constantFrom('a', 'b'),
          s: fc.integer({ min: 0, max: 60 }).map(sidOf),
          x: fc.integer({ min: 0, max: 3 }),
        }),
        { maxLength: 120 },
      ),
      fc.constantFrom('a', 'b'),
      fc.array(fc.integer({ min: 0, max: 70 }).map(sidOf), { maxLength: 20 }),
      fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 10 }),
      async (docs, p, sids, x, skip, limit) => {
        const indexed = store.collection(`in${n}`);
        const plain = store.collection(`plain${n++}`);
        await indexed.createIndex({ p: 1, s: 1 });
        await indexed.insertMany(docs.map((d) => ({ ...d })));
        await plain.insertMany(docs.map((d) => ({ ...d })));
        const filter = { p, s: { $in: sids }, ...(x !== undefined && { x }) };
        const opts = { sort: { s: 1 as const, x: -1 as const }, skip, ...(limit > 0 && { limit }) };
        const got = await indexed.find(filter, { ...opts, projection: { s: 1, x: 1 } });
        expect(got).toEqual(await plain.find(filter, { ...opts, projection: { s: 1, x: 1 } }));
      },
    ),
    { numRuns: 80 },
  );
  await store.close();
});

test('reads one index entry per value, not the collection', async () => {
  const file = openNedbFile(undefined);
  await file.load();
  await file.insert(Array.from({ length: 20_000 }, (_, i) => ({ p: i % 2 ? 'a' : 'b', s: sidOf(i) })));
  await file.ensureIndex(['p', 's'], { unique: true, sparse: false });
  const query = toNedbQuery({ p: 'a', s: { $in: [sidOf(1), sidOf(2), sidOf(3), sidOf(99_999)] } });
  const candidates = await file.exclusive(() => compoundInCandidates(file, query));
  expect(candidates?.map((d) => d.s).sort()).toEqual([sidOf(1), sidOf(3)]);
  // Another shape is left to NeDB's own plan.
  expect(
    await file.exclusive(() => compoundInCandidates(file, toNedbQuery({ s: { $in: [sidOf(1)] } }))),
  ).toBeUndefined();
  expect(
    await file.exclusive(() => compoundInCandidates(file, toNedbQuery({ p: 'a', s: { $gt: sidOf(1) } }))),
  ).toBeUndefined();
});
