import { ConflictError, DuplicateKeyError, NotFoundError, UnprocessableError } from '@patchbay/contracts';
import { changedFields, compareAndSet } from '../../src/doc-store/compare-and-set';
import type { DocStoreKit } from './doc-store-contract';

/** Single-document writes are atomic: no lost updates, one winner per unique key, one claimer per job. */
export function describeConcurrencyContract(kit: DocStoreKit): void {
  test('100 concurrent $inc add up to exactly 100', async () => {
    const c = kit.coll();
    await c.insertOne({ k: 'counter', n: 0 });
    await Promise.all(Array.from({ length: 100 }, () => c.updateOne({ k: 'counter' }, { $inc: { n: 1 } })));
    expect(await c.findOne({ k: 'counter' })).toEqual({ k: 'counter', n: 100 });
  });

  test('20 concurrent inserts of one unique key: exactly one wins, 19 get DuplicateKeyError', async () => {
    const c = kit.coll();
    await c.createIndex({ key: 1 }, { unique: true });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => c.insertOne({ key: 'same', i })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.reason).toBeInstanceOf(DuplicateKeyError);
    expect(await c.countDocuments({ key: 'same' })).toBe(1);
  });

  test('50 concurrent findOneAndUpdate claims over 10 documents claim each exactly once', async () => {
    const c = kit.coll();
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ job: i, claimed: false })));
    const claims = await Promise.all(
      Array.from({ length: 50 }, (_, worker) =>
        c.findOneAndUpdate({ claimed: false }, { $set: { claimed: true, by: worker } }),
      ),
    );
    const won = claims.filter((d): d is NonNullable<typeof d> => d !== null);
    expect(won).toHaveLength(10);
    expect(new Set(won.map((d) => d.job)).size).toBe(10);
    for (const d of won) expect(d.claimed).toBe(true);
    // What each winner was told is what is stored: nobody overwrote another's claim.
    for (const d of won) expect(await c.findOne({ job: d.job })).toEqual(d);
    expect(await c.countDocuments({ claimed: false })).toBe(0);
  });

  test('concurrent "before" claims see the unclaimed state exactly once per document', async () => {
    const c = kit.coll();
    await c.insertMany(Array.from({ length: 5 }, (_, i) => ({ job: i, claimed: false })));
    const before = await Promise.all(
      Array.from({ length: 20 }, () =>
        c.findOneAndUpdate({ claimed: false }, { $set: { claimed: true } }, { returnDocument: 'before' }),
      ),
    );
    const won = before.filter((d) => d !== null);
    expect(won).toHaveLength(5);
    for (const d of won) expect(d?.claimed).toBe(false);
    expect(new Set(won.map((d) => d?.job)).size).toBe(5);
  });

  test('concurrent upserts of one key under a unique index leave one document counting every success', async () => {
    const c = kit.coll();
    await c.createIndex({ key: 1 }, { unique: true });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => c.findOneAndUpdate({ key: 'k' }, { $inc: { n: 1 } }, { upsert: true })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DuplicateKeyError);
    expect(ok).toBeGreaterThan(0);
    expect(await c.find({ key: 'k' })).toEqual([{ key: 'k', n: ok }]);
  });

  test(
    'compareAndSet: 20 concurrent writers of 20 different fields all land, ' +
      'each decided on the state it wrote over',
    async () => {
      const c = kit.coll();
      await c.insertOne({ k: 'doc', total: 0 });
      const fields = Array.from({ length: 20 }, (_, i) => `f${i}`);
      // Each writer sets its own field and a derived total that spans every field: a lost update
      // or a decision on a stale read would leave the total out of step with the fields.
      await Promise.all(
        fields.map((f, i) =>
          compareAndSet(c, { k: 'doc' }, (cur) => {
            const next = { ...cur, [f]: i + 1 };
            next.total = fields.reduce((sum, g) => sum + Number(next[g] ?? 0), 0);
            return changedFields(cur, next);
          }),
        ),
      );
      const doc = await c.findOne({ k: 'doc' });
      for (const [i, f] of fields.entries()) expect(doc?.[f]).toBe(i + 1);
      expect(doc?.total).toBe((20 * 21) / 2);
      expect(doc?.revision).toBe(20);
    },
  );

  test(
    'compareAndSet: a document written before revisions existed is ' + 'updated; nothing changed writes nothing',
    async () => {
      const c = kit.coll();
      await c.insertOne({ k: 'old', a: 1 });
      const same = await compareAndSet(c, { k: 'old' }, (cur) => changedFields(cur, { ...cur, a: 1 }));
      expect(same.after).toBe(same.before);
      expect(await c.findOne({ k: 'old' })).toEqual({ k: 'old', a: 1 });
      const { before, after } = await compareAndSet(c, { k: 'old' }, (cur) =>
        changedFields(cur, { ...cur, a: 2, b: undefined, gone: undefined }),
      );
      expect(before).toEqual({ k: 'old', a: 1 });
      expect(after).toEqual({ k: 'old', a: 2, revision: 1 });
    },
  );

  test(
    'compareAndSet: unset fields, NotFoundError for no document, the ' +
      "decision's error as is, ConflictError after its attempts",
    async () => {
      const c = kit.coll();
      await c.insertOne({ k: 'x', a: 1, b: 2 });
      expect(
        (await compareAndSet(c, { k: 'x' }, (cur) => changedFields(cur, { ...cur, b: undefined }, ['b']))).after,
      ).toEqual({ k: 'x', a: 1, revision: 1 });
      await expect(compareAndSet(c, { k: 'missing' }, () => ({ $set: { a: 1 } }))).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(
        compareAndSet(c, { k: 'x' }, () => {
          throw UnprocessableError.field('a', 'no');
        }),
      ).rejects.toBeInstanceOf(UnprocessableError);
      // A rival that always writes in between: the caller gives up with a 409, never overwrites it.
      const rival = async () => {
        await c.updateOne({ k: 'x' }, { $inc: { revision: 1 } });
        return { $set: { a: 99 } };
      };
      await expect(compareAndSet(c, { k: 'x' }, rival, { attempts: 3 })).rejects.toBeInstanceOf(ConflictError);
      expect((await c.findOne({ k: 'x' }))?.a).toBe(1);
    },
  );
}
