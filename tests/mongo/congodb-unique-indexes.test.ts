/**
 * The emulator's unique indexes, through the official driver: what `patches/@push.rocks__smartmongo@2.2.0.patch`
 * adds to CongoDB, checked against MongoDB's documented behaviour (code 11000, the E11000 message
 * naming the index and key, keyPattern/keyValue; sparse, compound and multikey keys; a refused
 * write changes nothing; one winner under concurrency). Runs on its own in-memory server.
 */
import {
  Binary,
  Double,
  Long,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type Collection,
  type Db,
} from 'mongodb';
import { startCongoProcess, type CongoProcess } from './start-congo';

let server: CongoProcess;
let client: MongoClient;
let db: Db;
let n = 0;
const coll = (): Collection => db.collection(`c${++n}`);

beforeAll(async () => {
  server = await startCongoProcess();
  client = new MongoClient(server.url, { maxPoolSize: 25 });
  db = client.db('unique_test');
}, 30_000);
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

/** The server error of a refused write (MongoDB's shape, whichever command refused it). */
async function refusal(op: Promise<unknown>): Promise<MongoServerError> {
  const err = await op.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MongoServerError);
  expect((err as MongoServerError).code).toBe(11000);
  return err as MongoServerError;
}

describe('a unique index refuses a duplicate key', () => {
  test(
    'on insert: code 11000, the E11000 message naming collection, index ' +
      'and key, keyPattern and keyValue; nothing stored',
    async () => {
      const c = coll();
      await c.createIndex({ email: 1 }, { unique: true });
      await c.insertOne({ email: 'a@x', n: 1 });
      const err = await refusal(c.insertOne({ email: 'a@x', n: 2 }));
      expect(err.message).toBe(
        `E11000 duplicate key error collection: unique_test.${c.collectionName} ` +
          'index: email_1 dup key: { email: "a@x" }',
      );
      expect(err.keyPattern).toEqual({ email: 1 });
      expect(err.keyValue).toEqual({ email: 'a@x' });
      expect(await c.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ email: 'a@x', n: 1 }]);
      await c.insertOne({ email: 'b@x' });
    },
  );

  test('a duplicate _id is refused the same way, by the _id_ index', async () => {
    const c = coll();
    const { insertedId } = await c.insertOne({ a: 1 });
    const err = await refusal(c.insertOne({ _id: insertedId, a: 2 }));
    expect(err.message).toContain('index: _id_ dup key');
    expect(err.keyPattern).toEqual({ _id: 1 });
  });

  test(
    'on update, replacement, findAndModify and upsert; the refused ' +
      'document is unchanged, a document may keep its own key, and a key ' +
      'given up is free',
    async () => {
      const c = coll();
      await c.createIndex({ email: 1 }, { unique: true });
      await c.insertMany([
        { email: 'a', k: 1 },
        { email: 'b', k: 2 },
      ]);
      await refusal(c.updateOne({ k: 2 }, { $set: { email: 'a' } }));
      await refusal(c.replaceOne({ k: 2 }, { email: 'a', k: 2 }));
      await refusal(c.findOneAndUpdate({ k: 2 }, { $set: { email: 'a' } }));
      const upsert = await refusal(c.findOneAndUpdate({ k: 3 }, { $set: { email: 'a' } }, { upsert: true }));
      expect(upsert.keyValue).toEqual({ email: 'a' });
      await refusal(c.updateOne({ k: 3 }, { $set: { email: 'b' } }, { upsert: true }));
      expect(await c.find({}, { projection: { _id: 0 }, sort: { k: 1 } }).toArray()).toEqual([
        { email: 'a', k: 1 },
        { email: 'b', k: 2 },
      ]);
      await expect(c.updateOne({ k: 1 }, { $set: { email: 'a', touched: true } })).resolves.toMatchObject({
        modifiedCount: 1,
      });
      await expect(c.updateOne({ k: 2 }, { $set: { email: 'c' } })).resolves.toMatchObject({ modifiedCount: 1 });
      // The keys given up by an update or a delete are free again; the ones taken are not.
      await c.insertOne({ email: 'b', k: 4 });
      await refusal(c.insertOne({ email: 'c', k: 5 }));
      await c.deleteOne({ k: 2 });
      await c.insertOne({ email: 'c', k: 5 });
    },
  );

  test('in batches: an ordered insert stops at the duplicate, an unordered one skips it', async () => {
    const c = coll();
    await c.createIndex({ key: 1 }, { unique: true });
    const ordered = await c.insertMany([{ key: 1 }, { key: 1 }, { key: 2 }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect((ordered as MongoBulkWriteError).code).toBe(11000);
    expect(await c.countDocuments({})).toBe(1);
    const unordered = await c.insertMany([{ key: 3 }, { key: 3 }, { key: 4 }], { ordered: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((unordered as MongoBulkWriteError).writeErrors).toHaveLength(1);
    expect(await c.distinct('key')).toEqual([1, 3, 4]);
  });

  test('20 concurrent inserts of one key over separate connections: exactly one wins', async () => {
    const c = coll();
    await c.createIndex({ key: 1 }, { unique: true });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => c.insertOne({ key: 'same', i })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as MongoServerError).code).toBe(11000);
    expect(await c.countDocuments({ key: 'same' })).toBe(1);
  });
});

describe('which documents collide', () => {
  test('a compound index: the whole combination, named in the message', async () => {
    const c = coll();
    await c.createIndex({ container: 1, name: 1 }, { unique: true });
    await c.insertMany([
      { container: 'c1', name: 'a' },
      { container: 'c1', name: 'b' },
      { container: 'c2', name: 'a' },
    ]);
    const err = await refusal(c.insertOne({ container: 'c1', name: 'a' }));
    expect(err.message).toMatch(/index: container_1_name_1 dup key: \{ container: "c1", name: "a" \}$/);
    expect(err.keyValue).toEqual({ container: 'c1', name: 'a' });
  });

  test(
    'without sparse, a missing field is null: two documents without it ' + 'collide, and with an explicit null',
    async () => {
      const c = coll();
      await c.createIndex({ code: 1 }, { unique: true });
      await c.insertOne({ n: 1 });
      await refusal(c.insertOne({ n: 2 }));
      await refusal(c.insertOne({ n: 3, code: null }));
    },
  );

  test('sparse skips a document only when it has none of the fields; an explicit null is a value', async () => {
    const c = coll();
    await c.createIndex({ publish_id: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ n: 1 }, { n: 2 }, { n: 3, publish_id: 'p' }, { n: 4, publish_id: null }]);
    await refusal(c.insertOne({ n: 5, publish_id: 'p' }));
    await refusal(c.insertOne({ n: 6, publish_id: null }));
    await c.updateOne({ n: 3 }, { $unset: { publish_id: '' } });
    await c.insertOne({ n: 7, publish_id: 'p' });

    const compound = coll();
    await compound.createIndex({ a: 1, b: 1 }, { unique: true, sparse: true });
    await compound.insertMany([{ n: 1 }, { n: 2 }, { a: 1 }]);
    await refusal(compound.insertOne({ a: 1 })); // has one of the fields: indexed as { a: 1, b: null }
    await compound.insertOne({ a: 1, b: 2 });
  });

  test(
    'an array field indexes each element: documents sharing one collide, ' + 'one document may repeat a value',
    async () => {
      const c = coll();
      await c.createIndex({ tags: 1 }, { unique: true });
      await c.insertOne({ tags: ['a', 'b'] });
      const err = await refusal(c.insertOne({ tags: ['b', 'c'] }));
      expect(err.keyValue).toEqual({ tags: 'b' });
      await refusal(c.insertOne({ tags: 'a' }));
      await c.insertOne({ tags: ['c', 'c'] });
      await c.insertOne({ tags: [] });
      await refusal(c.insertOne({ tags: [] })); // an empty array is one key too (undefined)
      await refusal(
        db.collection<{ tags: string[] }>(c.collectionName).updateOne({ tags: 'c' }, { $push: { tags: 'a' } }),
      );
    },
  );

  test('a path through an array of documents indexes every element', async () => {
    const c = coll();
    await c.createIndex({ 'addresses.ip': 1 }, { unique: true, sparse: true });
    await c.insertOne({ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] });
    await refusal(c.insertOne({ addresses: [{ ip: '10.0.0.3' }, { ip: '10.0.0.2' }] }));
    await c.insertOne({ addresses: [{ ip: '10.0.0.3' }] });
    await c.insertOne({ other: 1 });
  });

  test(
    'numbers collide by value whatever their BSON type; other types by ' +
      'type and value (binaries by subtype and bytes)',
    async () => {
      const c = coll();
      await c.createIndex({ v: 1 }, { unique: true });
      await c.insertOne({ v: 1 });
      await refusal(c.insertOne({ v: new Double(1) }));
      await refusal(c.insertOne({ v: Long.fromNumber(1) }));
      await c.insertOne({ v: '1' });
      await c.insertOne({ v: new Date('2024-01-01T00:00:00Z') });
      await c.insertOne({ v: '2024-01-01T00:00:00.000Z' });
      await refusal(c.insertOne({ v: new Date('2024-01-01T00:00:00Z') }));
      await c.insertOne({ v: { x: 1, y: 2 } });
      await c.insertOne({ v: { y: 2, x: 1 } }); // embedded documents compare field order too
      await refusal(c.insertOne({ v: { x: 1, y: 2 } }));
      await c.insertOne({ v: new Binary(Buffer.from('ab')) });
      await c.insertOne({ v: new Binary(Buffer.from('ab'), 5) }); // same bytes, another subtype
      await c.insertOne({ v: new Binary(Buffer.from('abc')) });
      await refusal(c.insertOne({ v: new Binary(Buffer.from('ab')) }));
    },
  );
});

describe('building and re-creating indexes', () => {
  test('a unique index cannot be built over existing duplicates, and is then not there', async () => {
    const c = coll();
    await c.insertMany([{ email: 'x' }, { email: 'x' }]);
    await refusal(c.createIndex({ email: 1 }, { unique: true }));
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
    await c.insertOne({ email: 'x' });
  });

  test('an index re-created after its collection or database was dropped is enforced again', async () => {
    const c = coll();
    await c.createIndex({ k: 1 }, { unique: true });
    await c.drop();
    await c.createIndex({ k: 1 }, { unique: true });
    await c.insertOne({ k: 1 });
    await refusal(c.insertOne({ k: 1 }));

    const other = client.db('unique_test_dropped');
    await other.collection('x').createIndex({ k: 1 }, { unique: true });
    await other.dropDatabase();
    await other.collection('x').createIndex({ k: 1 }, { unique: true });
    await other.collection('x').insertOne({ k: 1 });
    await refusal(other.collection('x').insertOne({ k: 1 }));
    await other.dropDatabase();
  });

  test('the same index again is a no-op; a conflicting one is refused as MongoDB does (85, 86)', async () => {
    const c = coll();
    await expect(c.createIndex({ a: 1 }, { unique: true })).resolves.toBe('a_1');
    await expect(c.createIndex({ a: 1 }, { unique: true })).resolves.toBe('a_1');
    const code = async (p: Promise<unknown>) =>
      (
        (await p.then(
          () => undefined,
          (e: unknown) => e,
        )) as MongoServerError | undefined
      )?.code;
    expect(await code(c.createIndex({ a: 1 }))).toBe(85); // same name, other options
    expect(await code(c.createIndex({ a: 1 }, { unique: true, name: 'other' }))).toBe(85); // same key, other name
    expect(await code(c.createIndex({ b: 1 }, { name: 'a_1' }))).toBe(86); // same name, other key
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'a_1']);
  });
});
