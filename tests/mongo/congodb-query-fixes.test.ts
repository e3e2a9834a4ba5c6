/**
 * The emulator's other fixes in `patches/@push.rocks__smartmongo@2.2.0.patch`, through the
 * official driver, each checked against MongoDB's documented behaviour: sort order (BSON type
 * order, strings by bytes not locale, arrays by their extreme element), projections through arrays
 * of documents, upserts taking equality fields from a top-level `$and`, BSON values surviving an
 * update, cursor batches within MongoDB's 16 MiB reply limit. Runs on its own in-memory server.
 */
import { Binary, MongoClient, type Collection, type Db } from 'mongodb';
import { startCongoProcess, type CongoProcess } from './start-congo';

let server: CongoProcess;
let client: MongoClient;
let db: Db;
let n = 0;
const coll = (): Collection => db.collection(`c${++n}`);
const noId = { _id: 0 } as const;

beforeAll(async () => {
  server = await startCongoProcess();
  client = new MongoClient(server.url);
  db = client.db('fixes_test');
}, 30_000);
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('sort', () => {
  test('strings by their UTF-8 bytes, not locale order: upper case before lower case before accents', async () => {
    const c = coll();
    await c.insertMany(['b', 'B', 'a', 'é', 'A', 'Z', 'aa'].map((s) => ({ s })));
    const sorted = async (dir: 1 | -1) => (await c.find({}, { sort: { s: dir } }).toArray()).map((d) => d.s as string);
    expect(await sorted(1)).toEqual(['A', 'B', 'Z', 'a', 'aa', 'b', 'é']);
    expect(await sorted(-1)).toEqual(['é', 'b', 'aa', 'a', 'Z', 'B', 'A']);
  });

  test('mixed types in BSON order, with a missing field sorting as null', async () => {
    const c = coll();
    await c.insertMany([
      { id: 'date', v: new Date(0) },
      { id: 'bool', v: true },
      { id: 'str', v: 'x' },
      { id: 'num', v: 3 },
      { id: 'null', v: null },
      { id: 'doc', v: { a: 1 } },
      { id: 'missing' },
    ]);
    const ids = (await c.find({}, { sort: { v: 1, id: 1 } }).toArray()).map((d) => d.id as string);
    expect(ids).toEqual(['missing', 'null', 'num', 'str', 'doc', 'bool', 'date']);
  });

  test('an array sorts by its smallest element ascending and its largest descending', async () => {
    const c = coll();
    await c.insertMany([
      { id: 'a', v: [5, 1] },
      { id: 'b', v: 3 },
      { id: 'c', v: [2, 9] },
    ]);
    expect((await c.find({}, { sort: { v: 1 } }).toArray()).map((d) => d.id)).toEqual(['a', 'c', 'b']);
    expect((await c.find({}, { sort: { v: -1 } }).toArray()).map((d) => d.id)).toEqual(['c', 'a', 'b']);
  });
});

describe('projection', () => {
  const doc = {
    sid: 'p1',
    name: 'n',
    addresses: [{ ip: '1.1.1.1', port: 5060 }, { ip: '2.2.2.2' }, 'scalar'],
    meta: { a: 1, b: 2 },
  };

  test('an inclusion through an array of documents keeps the array of those fields', async () => {
    const c = coll();
    await c.insertOne({ ...doc });
    expect(await c.findOne({}, { projection: { ...noId, sid: 1, 'addresses.ip': 1, 'meta.b': 1 } })).toEqual({
      sid: 'p1',
      addresses: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }],
      meta: { b: 2 },
    });
    expect(await c.findOne({}, { projection: { ...noId, 'meta.none': 1 } })).toEqual({ meta: {} });
  });

  test(
    'an exclusion through an array removes the field from every element, ' + 'and leaves the stored document whole',
    async () => {
      const c = coll();
      await c.insertOne({ ...doc });
      expect(await c.findOne({}, { projection: { ...noId, 'addresses.port': 0, 'meta.a': 0, name: 0 } })).toEqual({
        sid: 'p1',
        addresses: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }, 'scalar'],
        meta: { b: 2 },
      });
      expect(await c.findOne({}, { projection: noId })).toEqual(doc);
    },
  );

  test('fields come back in the stored order, with _id unless excluded', async () => {
    const c = coll();
    const { insertedId } = await c.insertOne({ ...doc });
    const got = await c.findOne({}, { projection: { name: 1, sid: 1 } });
    expect(Object.keys(got!)).toEqual(['_id', 'sid', 'name']);
    expect(got!._id).toEqual(insertedId);
  });
});

describe('upsert', () => {
  test('takes the equality fields of a top-level $and, as MongoDB does', async () => {
    const c = coll();
    await c.updateOne(
      { sid: 'u1', $and: [{ tier: { $eq: 2 } }, { 'meta.owner': 'o1' }, { n: { $gt: 5 } }] },
      { $set: { v: 1 } },
      { upsert: true },
    );
    expect(await c.findOne({}, { projection: noId })).toEqual({ sid: 'u1', tier: 2, meta: { owner: 'o1' }, v: 1 });
    const after = await c.findOneAndUpdate(
      { $and: [{ sid: 'u2' }] },
      { $inc: { count: 1 } },
      { upsert: true, returnDocument: 'after', projection: noId },
    );
    expect(after).toEqual({ sid: 'u2', count: 1 });
  });
});

describe('updates keep BSON values', () => {
  test('a Binary field stays the same Binary when another field is updated', async () => {
    const c = coll();
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    await c.insertOne({ k: 1, bin: new Binary(bytes), nested: { bin: new Binary(bytes, 4) } });
    await c.updateOne({ k: 1 }, { $set: { other: true } });
    const got = await c.findOne({ k: 1 });
    expect(got!.bin).toBeInstanceOf(Binary);
    expect(Buffer.from((got!.bin as Binary).buffer)).toEqual(bytes);
    expect((got!.nested as { bin: Binary }).bin.sub_type).toBe(4);
  });
});

describe('cursors', () => {
  test('documents passing 16 MiB together come back whole over several batches, from find and aggregate', async () => {
    const c = coll();
    const big = (i: number) => ({ i, data: new Binary(Buffer.alloc(6 * 1024 * 1024, i)) });
    for (let i = 0; i < 5; i++) await c.insertOne(big(i));
    const check = (docs: Array<Record<string, unknown>>) => {
      expect(docs.map((d) => d.i)).toEqual([0, 1, 2, 3, 4]);
      // Buffer.equals: jest's deep equality walks 6 MiB byte by byte.
      for (const d of docs)
        expect(Buffer.from((d.data as Binary).buffer).equals(Buffer.alloc(6 * 1024 * 1024, d.i as number))).toBe(true);
    };
    check(await c.find({}, { sort: { i: 1 } }).toArray());
    check(await c.aggregate([{ $sort: { i: 1 } }]).toArray());
  });
});
