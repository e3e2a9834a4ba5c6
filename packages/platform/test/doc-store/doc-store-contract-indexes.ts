import { ConflictError, DuplicateKeyError } from '@patchbay/contracts';
import type { DocStoreKit } from './doc-store-contract';

async function duplicate(p: Promise<unknown>): Promise<DuplicateKeyError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DuplicateKeyError);
  expect(err).toBeInstanceOf(ConflictError);
  expect((err as DuplicateKeyError).status).toBe(409);
  return err as DuplicateKeyError;
}

/** Unique, compound and sparse indexes; DuplicateKeyError on every kind of write. */
export function describeIndexContract(kit: DocStoreKit): void {
  test('a unique index refuses a duplicate insert with DuplicateKeyError naming the index', async () => {
    const c = kit.coll();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: 'a@x', n: 1 });
    expect((await duplicate(c.insertOne({ email: 'a@x', n: 2 }))).index).toBe('email_1');
    expect(await c.find({}, { projection: { n: 1 } })).toEqual([{ n: 1 }]);
    await c.insertOne({ email: 'b@x' });
  });

  test('an index keeps the name it was given', async () => {
    const c = kit.coll();
    await c.createIndex({ sid: 1 }, { unique: true, name: 'uniq_sid' });
    await c.createIndex({ other: 1 }, { unique: true });
    await c.insertOne({ sid: 's1', other: 1 });
    expect((await duplicate(c.insertOne({ sid: 's1', other: 2 }))).index).toBe('uniq_sid');
    expect((await duplicate(c.insertOne({ sid: 's2', other: 1 }))).index).toBe('other_1');
  });

  test(
    'updates, find-and-modify, upserts, replacements and batches are ' +
      'refused too; a refused single write changes nothing',
    async () => {
      const c = kit.coll();
      await c.createIndex({ email: 1 }, { unique: true });
      await c.insertMany([
        { email: 'a', k: 1 },
        { email: 'b', k: 2 },
      ]);
      await duplicate(c.updateOne({ k: 2 }, { $set: { email: 'a' } }));
      await duplicate(c.findOneAndUpdate({ k: 2 }, { $set: { email: 'a' } }));
      await duplicate(c.findOneAndUpdate({ k: 3 }, { $set: { email: 'a' } }, { upsert: true }));
      await duplicate(c.replaceOne({ k: 2 }, { email: 'a', k: 2 }));
      await duplicate(
        c.insertMany([
          { email: 'c', k: 3 },
          { email: 'c', k: 4 },
        ]),
      );
      expect(await c.findOne({ k: 2 })).toEqual({ email: 'b', k: 2 });
      expect(await c.countDocuments({ email: 'a' })).toBe(1);
      // A multi-document write is not atomic in MongoDB: only the refusal itself is part of the contract.
      await duplicate(c.updateMany({ k: { $gte: 1 } }, { $set: { email: 'same' } }));
    },
  );

  test('a compound unique index constrains the combination only', async () => {
    const c = kit.coll();
    await c.createIndex({ container: 1, name: 1 }, { unique: true });
    await c.insertMany([
      { container: 'c1', name: 'a' },
      { container: 'c1', name: 'b' },
      { container: 'c2', name: 'a' },
    ]);
    expect((await duplicate(c.insertOne({ container: 'c1', name: 'a' }))).index).toBe('container_1_name_1');
    expect(await c.countDocuments({})).toBe(3);
  });

  test('a sparse unique index ignores documents without the field', async () => {
    const c = kit.coll();
    await c.createIndex({ publish_id: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ n: 1 }, { n: 2 }, { n: 3, publish_id: 'p' }]);
    await c.insertOne({ n: 4 });
    await duplicate(c.insertOne({ n: 5, publish_id: 'p' }));
    await c.updateOne({ n: 3 }, { $unset: { publish_id: '' } });
    await c.insertOne({ n: 6, publish_id: 'p' });
    expect(await c.countDocuments({})).toBe(5);
  });

  test('a non-sparse unique index counts a missing field as a value', async () => {
    const c = kit.coll();
    await c.createIndex({ code: 1 }, { unique: true });
    await c.insertOne({ n: 1 });
    await duplicate(c.insertOne({ n: 2 }));
  });

  test('createIndex is idempotent', async () => {
    const c = kit.coll();
    await c.createIndex({ email: 1 }, { unique: true });
    await c.createIndex({ email: 1 }, { unique: true });
    await c.createIndex({ a: 1, b: -1 });
    await c.createIndex({ a: 1, b: -1 });
    await c.insertOne({ email: 'x' });
    await duplicate(c.insertOne({ email: 'x' }));
  });

  test('dropIndex removes the index on exactly those keys, and is a no-op when there is none', async () => {
    const c = kit.coll();
    await c.dropIndex({ sid: 1 }); // no collection yet
    await c.createIndex({ sid: 1 }, { unique: true });
    await c.createIndex({ owner: 1, sid: 1 }, { unique: true });
    await c.insertOne({ owner: 'a', sid: 's' });
    await duplicate(c.insertOne({ owner: 'b', sid: 's' }));
    await c.dropIndex({ sid: 1 });
    await c.dropIndex({ sid: 1 });
    await c.dropIndex({ nope: 1 });
    await c.insertOne({ owner: 'b', sid: 's' });
    expect((await duplicate(c.insertOne({ owner: 'a', sid: 's' }))).index).toBe('owner_1_sid_1');
    expect(await c.countDocuments({ sid: 's' })).toBe(2);
  });

  test('a unique index cannot be built over existing duplicates', async () => {
    const c = kit.coll();
    await c.insertMany([{ email: 'x' }, { email: 'x' }]);
    await duplicate(c.createIndex({ email: 1 }, { unique: true }));
  });

  test('a unique index over a field holding arrays: no element in two documents (scalars included)', async () => {
    const c = kit.coll();
    await c.createIndex({ keys: 1 }, { unique: true, sparse: true, name: 'keys_unique' });
    await c.insertMany([{ n: 1, keys: ['a', 'b'] }, { n: 2, keys: ['c'] }, { n: 3 }, { n: 4 }]);
    expect((await duplicate(c.insertOne({ n: 5, keys: ['b', 'd'] }))).index).toBe('keys_unique');
    await duplicate(c.insertOne({ n: 5, keys: 'a' }));
    await duplicate(c.updateOne({ n: 2 }, { $set: { keys: ['c', 'a'] } }));
    expect(await c.findOne({ n: 2 }, { projection: { keys: 1 } })).toEqual({ keys: ['c'] });
    await c.updateOne({ n: 1 }, { $set: { keys: ['x'] } });
    await c.insertOne({ n: 6, keys: ['a', 'b'] });
    await c.deleteOne({ n: 2 });
    await c.insertOne({ n: 7, keys: 'c' });
    expect(await c.countDocuments({ keys: { $in: ['a', 'c', 'x'] } })).toBe(3);
  });
}
