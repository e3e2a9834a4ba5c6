import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
