import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuplicateKeyError } from '@patchbay/contracts';
import { NedbDocStore } from '../../src/doc-store/nedb-doc-store';
import { describeDocStoreContract } from './doc-store-contract';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'patchbay-nedb-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeDocStoreContract('NedbDocStore in memory', async () => new NedbDocStore({}));
describeDocStoreContract('NedbDocStore on disk', async () => new NedbDocStore({ dir: path.join(root, 'contract') }));

describe('NedbDocStore persistence', () => {
  const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

  test('data and indexes survive close and reopen; close compacts the datafile', async () => {
    const dir = path.join(root, 'persist');
    const first = new NedbDocStore({ dir });
    const users = first.collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ org: 1, name: 1 }, { unique: true });
    await users.insertMany([
      { email: 'a@x', org: 'o', name: 'a', at: new Date('2024-01-02T03:04:05.678Z'), n: 0 },
      { email: 'b@x', org: 'o', name: 'b', n: 0 },
    ]);
    for (let i = 0; i < 5; i++) await users.updateOne({ email: 'a@x' }, { $inc: { n: 1 } });
    await users.deleteOne({ email: 'b@x' });
    await first.close();
    // One line per live document plus one per index: the update history and the deleted one are gone.
    expect(await lines(path.join(dir, 'users.db'))).toHaveLength(1 + 2);

    const second = new NedbDocStore({ dir });
    const again = second.collection('users');
    const doc = await again.findOne({ email: 'a@x' });
    expect(doc).toEqual({ email: 'a@x', org: 'o', name: 'a', at: new Date('2024-01-02T03:04:05.678Z'), n: 5 });
    expect(doc?.at).toBeInstanceOf(Date);
    await expect(again.insertOne({ email: 'a@x', org: 'p', name: 'z' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(again.insertOne({ email: 'c@x', org: 'o', name: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await again.insertOne({ email: 'c@x', org: 'o', name: 'c' });
    await second.close();
  });

  test('a dropped index stays dropped after reopening', async () => {
    const dir = path.join(root, 'dropped');
    const first = new NedbDocStore({ dir });
    await first.collection('records').createIndex({ sid: 1 }, { unique: true });
    await first.collection('records').insertOne({ sid: 's', owner: 'a' });
    await first.close();
    const second = new NedbDocStore({ dir });
    await expect(second.collection('records').insertOne({ sid: 's', owner: 'b' })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    await second.collection('records').dropIndex({ sid: 1 });
    await second.close();
    const third = new NedbDocStore({ dir });
    await third.collection('records').insertOne({ sid: 's', owner: 'b' });
    expect(await third.collection('records').countDocuments({ sid: 's' })).toBe(2);
    await third.close();
  });

  test('one datafile per collection; a closed store refuses use', async () => {
    const dir = path.join(root, 'files');
    const store = new NedbDocStore({ dir });
    await store.collection('alpha').insertOne({ a: 1 });
    await store.collection('beta').insertOne({ b: 1 });
    await store.close();
    expect(await lines(path.join(dir, 'alpha.db'))).toHaveLength(1);
    expect(await lines(path.join(dir, 'beta.db'))).toHaveLength(1);
    expect(() => store.collection('alpha')).toThrow();
  });

  test('refuses collection names that are not plain file names', () => {
    const store = new NedbDocStore({});
    for (const name of ['../x', 'a/b', '', '.hidden']) expect(() => store.collection(name)).toThrow();
  });
});
