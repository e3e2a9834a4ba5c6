import { cp, mkdtemp, readdir, rm, writeFile, appendFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkNedbMigration, migrateNedb } from '../../src/doc-store/nedb-migration';
import { migrateDataDir, sqliteFile } from '../../src/doc-store/nedb-migration-plan';
import { SqliteDocStore } from '../../src/doc-store/sqlite-doc-store';

/** A data directory written by the NeDB store of the release before SQLite (tests/fixtures/nedb-data). */
const FIXTURE = path.resolve(__dirname, '../../../../tests/fixtures/nedb-data');

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'patchbay-nedb-migration-'));
  await cp(FIXTURE, root, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('--check counts the live documents of every collection and writes nothing', async () => {
  const reports = await migrateDataDir(root, { check: true });
  expect(reports.map((r) => path.basename(r.dir))).toEqual(['endpoint', 'identity', 'push', 'records', 'storage']);
  const records = reports.find((r) => r.dir.endsWith('records'));
  expect(records?.outcome).toBe('would-migrate');
  expect(records?.collections).toEqual([
    { name: 'call_drs', documents: 3, corruptLines: 0 },
    { name: 'countries', documents: expect.any(Number), corruptLines: 0 },
    { name: 'message_drs', documents: 2, corruptLines: 0 },
  ]);
  for (const r of reports) expect(existsSync(r.file)).toBe(false);
  expect((await readdir(path.join(root, 'records'))).sort()).toEqual(['call_drs.db', 'countries.db', 'message_drs.db']);
});

test('migrates each collection with its Dates, moves the datafiles aside, and is done once', async () => {
  const dir = path.join(root, 'records');
  const file = sqliteFile(root, 'records');
  const report = await migrateNedb(dir, file);
  expect(report?.outcome).toBe('migrated');
  expect(await readdir(path.join(dir, 'nedb-migrated'))).toEqual(['call_drs.db', 'countries.db', 'message_drs.db']);
  const store = new SqliteDocStore({ file });
  const calls = await store.collection('call_drs').find({}, { sort: { dr_sid: 1 } });
  expect(calls.map((d) => d.dr_sid)).toEqual([0, 1, 2].map((i) => `00000000-0000-4000-8000-00000000010${i}`));
  expect(calls[0].date_stop).toEqual(new Date('2024-01-01T12:01:00.000Z'));
  expect(calls[0]).not.toHaveProperty('_id');
  expect(await store.collection('message_drs').countDocuments({})).toBe(2);
  await store.close();
  expect(await migrateNedb(dir, file)).toBeUndefined();
});

test('a later line replaces a document and a $$deleted line removes it; a torn last line is skipped', async () => {
  const dir = path.join(root, 'lines');
  await cp(path.join(root, 'records', 'call_drs.db'), path.join(dir, 'c.db'), { recursive: true });
  await appendFile(
    path.join(dir, 'c.db'),
    '{"_id":"x1","k":1,"at":{"$$date":0}}\n{"_id":"x1","k":2,"at":{"$$date":1000}}\n' +
      '{"_id":"x2","k":3}\n{"$$deleted":true,"_id":"x2"}\n{"_id":"x3","k":',
  );
  const report = await checkNedbMigration(dir, path.join(dir, 'store.sqlite'));
  expect(report?.collections).toEqual([{ name: 'c', documents: 4, corruptLines: 1 }]);
  await migrateNedb(dir, path.join(dir, 'store.sqlite'));
  const store = new SqliteDocStore({ file: path.join(dir, 'store.sqlite') });
  expect(await store.collection('c').find({ k: { $exists: true } })).toEqual([{ k: 2, at: new Date(1000) }]);
  await store.close();
});

test('a crash before the copy was complete leaves the datafiles, and the next start copies them again', async () => {
  const dir = path.join(root, 'records');
  const file = sqliteFile(root, 'records');
  // What a crash mid-copy leaves: a partial file under the temporary name.
  await writeFile(`${file}.migrating`, 'partial');
  const report = await migrateNedb(dir, file);
  expect(report?.collections.find((c) => c.name === 'call_drs')?.documents).toBe(3);
  expect(existsSync(`${file}.migrating`)).toBe(false);
});

test('a crash after the copy, before the datafiles moved: the next start only moves them', async () => {
  const dir = path.join(root, 'records');
  const file = sqliteFile(root, 'records');
  await migrateNedb(dir, file);
  // Put one datafile back, as if the move had not happened.
  await cp(path.join(dir, 'nedb-migrated', 'call_drs.db'), path.join(dir, 'call_drs.db'));
  const report = await migrateNedb(dir, file);
  expect(report?.outcome).toBe('finished');
  const store = new SqliteDocStore({ file });
  expect(await store.collection('call_drs').countDocuments({})).toBe(3);
  await store.close();
  expect(existsSync(path.join(dir, 'call_drs.db'))).toBe(false);
});

test('refuses a datafile with more than 10 % corrupt lines, as NeDB did, and leaves it in place', async () => {
  const dir = path.join(root, 'bad');
  await cp(path.join(root, 'records', 'call_drs.db'), path.join(dir, 'c.db'), { recursive: true });
  await appendFile(path.join(dir, 'c.db'), 'garbage\n'.repeat(5));
  await expect(migrateNedb(dir, path.join(dir, 'store.sqlite'))).rejects.toThrow(/corrupt/);
  expect(existsSync(path.join(dir, 'c.db'))).toBe(true);
  expect(existsSync(path.join(dir, 'store.sqlite'))).toBe(false);
});
