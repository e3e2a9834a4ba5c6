import type { DocStoreKit } from './doc-store-contract';
import { person, withPeople } from './doc-store-fixtures';

/** Writes and their results: insert, count, delete, update operators, find-and-modify, replace. */
export function describeCrudContract(kit: DocStoreKit): void {
  test(
    'insertOne stores a copy: nested objects, arrays, Dates and null ' + 'round-trip; the input is untouched',
    async () => {
      const c = kit.coll();
      const doc = person('p1');
      await c.insertOne(doc);
      expect(doc).toEqual(person('p1'));
      expect(doc).not.toHaveProperty('_id');
      expect(await c.findOne({ sid: 'p1' })).toEqual(person('p1'));
    },
  );

  test('an undefined field is stored as null, as the MongoDB driver does by default', async () => {
    const c = kit.coll();
    await c.insertOne({ k: 1, gone: undefined, nested: { gone: undefined } });
    expect(await c.findOne({ k: 1 })).toStrictEqual({ k: 1, gone: null, nested: { gone: null } });
    await c.updateOne({ k: 1 }, { $set: { later: undefined } });
    expect(await c.findOne({ later: null, gone: { $exists: true } })).toStrictEqual({
      k: 1,
      gone: null,
      nested: { gone: null },
      later: null,
    });
  });

  test('insertMany stores all; an empty batch is a no-op', async () => {
    const c = kit.coll();
    await c.insertMany([{ i: 1 }, { i: 2 }, { i: 3 }]);
    await c.insertMany([]);
    expect((await c.find({}, { sort: { i: 1 } })).map((d) => d.i)).toEqual([1, 2, 3]);
  });

  test('countDocuments counts matches', async () => {
    const c = kit.coll();
    await withPeople(c);
    expect(await c.countDocuments({})).toBe(4);
    expect(await c.countDocuments({ active: true })).toBe(2);
    expect(await c.countDocuments({ 'addresses.port': 5060 })).toBe(2);
    expect(await c.countDocuments({ name: 'nobody' })).toBe(0);
  });

  test('deleteOne removes one match and says how many; deleteMany removes all matches', async () => {
    const c = kit.coll();
    await c.insertMany([{ k: 'a' }, { k: 'a' }, { k: 'a' }, { k: 'b' }]);
    expect(await c.deleteOne({ k: 'a' })).toBe(1);
    expect(await c.countDocuments({ k: 'a' })).toBe(2);
    expect(await c.deleteOne({ k: 'zzz' })).toBe(0);
    expect(await c.deleteMany({ k: 'a' })).toBe(2);
    expect(await c.deleteMany({ k: 'a' })).toBe(0);
    expect(await c.find({}, { projection: { k: 1 } })).toEqual([{ k: 'b' }]);
  });

  test('updateOne: $set with dot paths (creating parents), $unset, $inc; matched and modified counts', async () => {
    const c = kit.coll();
    await c.insertOne(person('p1'));
    const at = new Date('2025-05-05T05:05:05Z');
    const res = await c.updateOne(
      { sid: 'p1' },
      {
        $set: { 'address.city': 'Lyon', 'meta.seen': at, active: false },
        $unset: { note: '', 'address.zip': '' },
        $inc: { age: 2, visits: 1 },
      },
    );
    expect(res).toEqual({ matchedCount: 1, modifiedCount: 1 });
    const doc = await c.findOne({ sid: 'p1' });
    expect(doc).toMatchObject({ address: { city: 'Lyon' }, meta: { seen: at }, active: false, age: 32, visits: 1 });
    expect(doc).not.toHaveProperty('note');
    expect(doc?.address).toEqual({ city: 'Lyon' });
    expect((doc?.meta as { seen: Date }).seen).toBeInstanceOf(Date);
  });

  test('updateOne counts a no-change update as matched but not modified, and a miss as neither', async () => {
    const c = kit.coll();
    await c.insertOne({ k: 1, v: 'same' });
    expect(await c.updateOne({ k: 1 }, { $set: { v: 'same' } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
    expect(await c.updateOne({ k: 2 }, { $set: { v: 'x' } })).toEqual({ matchedCount: 0, modifiedCount: 0 });
    expect(await c.updateOne({ k: 1 }, { $unset: { missing: '' } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
  });

  test('updateOne changes only one of several matches; updateMany changes all', async () => {
    const c = kit.coll();
    // Which match updateOne picks is unspecified (natural order differs between stores): nothing below depends on it.
    await c.insertMany([
      { g: 'a', n: 1 },
      { g: 'a', n: 1 },
      { g: 'a', n: 1 },
      { g: 'b', n: 1 },
    ]);
    expect(await c.updateOne({ g: 'a' }, { $inc: { n: 10 } })).toEqual({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.countDocuments({ n: 11 })).toBe(1);
    expect(await c.updateMany({ g: 'a', n: { $lt: 11 } }, { $set: { n: 1 } })).toEqual({
      matchedCount: 2,
      modifiedCount: 0,
    });
    expect(await c.updateMany({ g: 'a' }, { $set: { n: 1 } })).toEqual({ matchedCount: 3, modifiedCount: 1 });
    expect(await c.updateMany({ g: 'a' }, { $set: { done: true } })).toEqual({ matchedCount: 3, modifiedCount: 3 });
    expect(await c.countDocuments({ done: true })).toBe(3);
  });

  test('findOneAndUpdate returns the document after (default) or before the update, or null', async () => {
    const c = kit.coll();
    await c.insertOne({ k: 'x', n: 1 });
    expect(await c.findOneAndUpdate({ k: 'x' }, { $inc: { n: 1 } })).toEqual({ k: 'x', n: 2 });
    expect(await c.findOneAndUpdate({ k: 'x' }, { $inc: { n: 1 } }, { returnDocument: 'before' })).toEqual({
      k: 'x',
      n: 2,
    });
    expect(await c.findOneAndUpdate({ k: 'x' }, { $set: { s: 'v' } }, { returnDocument: 'after' })).toEqual({
      k: 'x',
      n: 3,
      s: 'v',
    });
    expect(await c.findOneAndUpdate({ k: 'nope' }, { $set: { s: 'v' } })).toBeNull();
    expect(await c.countDocuments({})).toBe(1);
  });

  test("findOneAndUpdate with upsert inserts the filter's equality fields plus the update", async () => {
    const c = kit.coll();
    const after = await c.findOneAndUpdate(
      { sid: 'u1', kind: 'x', 'meta.owner': 'o1', n: { $gt: 5 }, $and: [{ tier: { $eq: 2 } }] },
      { $set: { v: 1 }, $inc: { count: 2 } },
      { upsert: true },
    );
    const expected = { sid: 'u1', kind: 'x', meta: { owner: 'o1' }, tier: 2, v: 1, count: 2 };
    expect(after).toEqual(expected);
    expect(await c.findOne({ sid: 'u1' })).toEqual(expected);
    expect(
      await c.findOneAndUpdate({ sid: 'u2' }, { $set: { v: 2 } }, { upsert: true, returnDocument: 'before' }),
    ).toBeNull();
    expect(await c.findOne({ sid: 'u2' })).toEqual({ sid: 'u2', v: 2 });
    // An existing match is updated, not duplicated.
    expect(await c.findOneAndUpdate({ sid: 'u1' }, { $inc: { count: 1 } }, { upsert: true })).toMatchObject({
      count: 3,
    });
    expect(await c.countDocuments({})).toBe(2);
  });

  test('replaceOne replaces the whole first match', async () => {
    const c = kit.coll();
    await c.insertMany([
      { k: 1, a: 1, b: 2 },
      { k: 2, a: 1 },
    ]);
    expect(await c.replaceOne({ k: 1 }, { k: 1, c: 3 })).toEqual({ matchedCount: 1, modifiedCount: 1 });
    expect(await c.findOne({ k: 1 })).toEqual({ k: 1, c: 3 });
    expect(await c.replaceOne({ k: 1 }, { k: 1, c: 3 })).toEqual({ matchedCount: 1, modifiedCount: 0 });
    expect(await c.replaceOne({ k: 9 }, { k: 9 })).toEqual({ matchedCount: 0, modifiedCount: 0 });
    expect(await c.countDocuments({})).toBe(2);
  });

  test('a malformed update is refused with a contract error, not a raw driver error', async () => {
    const c = kit.coll();
    await c.insertOne({ k: 1, s: 'text' });
    await expect(c.updateOne({ k: 1 }, { $inc: { s: 1 } })).rejects.toMatchObject({
      status: expect.any(Number),
      code: expect.any(String),
    });
    await expect(c.updateOne({ k: 1 }, { k: 2 } as never)).rejects.toMatchObject({ status: expect.any(Number) });
    expect(await c.findOne({ k: 1 })).toEqual({ k: 1, s: 'text' });
  });
}
