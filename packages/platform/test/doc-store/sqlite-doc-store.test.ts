import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuplicateKeyError } from '@patchbay/contracts';
import { SqliteDocStore } from '../../src/doc-store/sqlite-doc-store';
import { describeDocStoreContract } from './doc-store-contract';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'patchbay-sqlite-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeDocStoreContract('SqliteDocStore in memory', async () => new SqliteDocStore());
describeDocStoreContract('SqliteDocStore on disk', async () => new SqliteDocStore({ file: path.join(root, 'c.db') }));

describe('SqliteDocStore on disk', () => {
  test('data, Dates and indexes survive close and reopen; the file and its WAL are private (0600)', async () => {
    const file = path.join(root, 'persist.sqlite');
    const first = new SqliteDocStore({ file });
    const users = first.collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ org: 1, name: 1 }, { unique: true });
    await users.insertMany([
      { email: 'a@x', org: 'o', name: 'a', at: new Date('2024-01-02T03:04:05.678Z'), n: 0 },
      { email: 'b@x', org: 'o', name: 'b', n: 0 },
    ]);
    for (let i = 0; i < 5; i++) await users.updateOne({ email: 'a@x' }, { $inc: { n: 1 } });
    await users.deleteOne({ email: 'b@x' });
    for (const f of [file, `${file}-wal`]) expect((await stat(f)).mode & 0o777).toBe(0o600);
    await first.close();

    const second = new SqliteDocStore({ file });
    const again = second.collection('users');
    const doc = await again.findOne({ email: 'a@x' });
    expect(doc).toEqual({ email: 'a@x', org: 'o', name: 'a', at: new Date('2024-01-02T03:04:05.678Z'), n: 5 });
    expect(doc?.at).toBeInstanceOf(Date);
    await expect(again.insertOne({ email: 'a@x', org: 'p', name: 'z' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(again.insertOne({ email: 'c@x', org: 'o', name: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await again.insertOne({ email: 'c@x', org: 'o', name: 'c' });
    await second.close();
  });

  test('a dropped index stays dropped after reopening; a path that held an array stays multikey', async () => {
    const file = path.join(root, 'dropped.sqlite');
    const first = new SqliteDocStore({ file });
    await first.collection('records').createIndex({ sid: 1 }, { unique: true });
    await first.collection('records').createIndex({ tags: 1 });
    await first.collection('records').insertOne({ sid: 's', owner: 'a', tags: ['x', 'y'] });
    await first.close();
    const second = new SqliteDocStore({ file });
    await expect(second.collection('records').insertOne({ sid: 's', owner: 'b' })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    await second.collection('records').dropIndex({ sid: 1 });
    await second.close();
    const third = new SqliteDocStore({ file });
    await third.collection('records').insertOne({ sid: 's', owner: 'b', tags: 'y' });
    expect(await third.collection('records').countDocuments({ sid: 's' })).toBe(2);
    expect(await third.collection('records').countDocuments({ tags: 'y' })).toBe(2);
    await third.close();
  });

  test('a closed store refuses use; collection names must be plain and not the store own', async () => {
    const store = new SqliteDocStore();
    for (const name of ['../x', 'a/b', '', '.hidden', '_patchbay_indexes', 'a"b'])
      expect(() => store.collection(name)).toThrow();
    await store.close();
    expect(() => store.collection('alpha')).toThrow();
  });

  test('a unique index refused over duplicates leaves the collection as it was, queries included', async () => {
    const store = new SqliteDocStore();
    const c = store.collection('dups');
    await c.insertMany([{ email: 'x' }, { email: 'x' }, { email: 'y' }]);
    await expect(c.createIndex({ email: 1 }, { unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(await c.countDocuments({ email: 'x' })).toBe(2);
    expect((await c.find({}, { sort: { email: -1 } })).map((d) => d.email)).toEqual(['y', 'x', 'x']);
    await c.insertOne({ email: 'x' });
    await store.close();
  });

  test('a malformed filter is a contract error, not a raw driver error', async () => {
    const store = new SqliteDocStore();
    const c = store.collection('x');
    await c.insertOne({ a: 1 });
    await expect(c.find({ a: { $nope: 1 } })).rejects.toMatchObject({ status: expect.any(Number) });
    await store.close();
  });
});
