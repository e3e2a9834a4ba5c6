/**
 * Moves a service's NeDB datafiles (`<dir>/<collection>.db`, what Patchbay wrote before SQLite) into
 * its SQLite file, once, on the first start that finds them.
 *
 * Nothing half-written: the collections are copied into `<file>.migrating`, counted against what
 * the datafiles hold, and only then is that file renamed to `<file>`; the datafiles are then moved,
 * untouched, into `<dir>/nedb-migrated/` for the operator to remove. A crash before the rename
 * leaves the datafiles in place and the next start begins again; a crash after it finds `<file>`
 * and only moves the datafiles aside. Memory stays flat: the live documents of a datafile are
 * gathered in a temporary SQLite table, not in the heap.
 */
import { existsSync, mkdirSync, openSync, closeSync, fsyncSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Doc } from './port';
import { readNedbDatafile } from './nedb-datafile';
import { SqliteDocStore } from './sqlite-doc-store';
import { decodeDoc, encodeDoc } from './sqlite-json';

export interface MigratedCollection {
  name: string;
  documents: number;
  /** Lines NeDB itself would have skipped (a crash mid-append leaves one). */
  corruptLines: number;
}

export interface NedbMigrationReport {
  dir: string;
  file: string;
  /**
   * `would-migrate` from a check; `migrated` now; `finished` by an earlier start that stopped before moving the files.
   */
  outcome: 'would-migrate' | 'migrated' | 'finished';
  collections: MigratedCollection[];
}

export const MIGRATED_DIR = 'nedb-migrated';
const BATCH = 10_000;

/** The collections with an NeDB datafile in `dir` (`x.db`, or only `x.db~` after a crash mid-compaction). */
export function nedbCollections(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const m = /^(.+)\.db~?$/.exec(entry.name);
    if (entry.isFile() && m) names.add(m[1]);
  }
  return [...names].sort();
}

/** What a migration of `dir` into `file` would copy; writes nothing. Undefined when there is nothing to move. */
export async function checkNedbMigration(dir: string, file: string): Promise<NedbMigrationReport | undefined> {
  const names = nedbCollections(dir);
  if (names.length === 0) return undefined;
  const collections: MigratedCollection[] = [];
  for (const name of names) {
    const staged = await stage(path.join(dir, `${name}.db`));
    collections.push({ name, documents: staged.count(), corruptLines: staged.corrupt });
    staged.close();
  }
  return { dir, file, outcome: existsSync(file) ? 'finished' : 'would-migrate', collections };
}

/** Migrates `dir`'s datafiles into `file` (see the module note). Undefined when there is nothing to move. */
export async function migrateNedb(dir: string, file: string): Promise<NedbMigrationReport | undefined> {
  const names = nedbCollections(dir);
  if (names.length === 0) return undefined;
  if (existsSync(file)) {
    moveAside(dir, names);
    return { dir, file, outcome: 'finished', collections: [] };
  }
  const tmp = `${file}.migrating`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(tmp + suffix, { force: true });
  const store = new SqliteDocStore({ file: tmp });
  const collections: MigratedCollection[] = [];
  try {
    for (const name of names) {
      const staged = await stage(path.join(dir, `${name}.db`));
      try {
        const target = store.collection(name);
        let batch: Doc[] = [];
        for (const text of staged.docs()) {
          batch.push(decodeDoc(text));
          if (batch.length === BATCH) {
            await target.insertMany(batch);
            batch = [];
          }
        }
        await target.insertMany(batch);
        const documents = await target.countDocuments({});
        if (documents !== staged.count())
          throw new Error(`${name}: ${documents} documents copied, but the datafile holds ${staged.count()}`);
        collections.push({ name, documents, corruptLines: staged.corrupt });
      } finally {
        staged.close();
      }
    }
  } finally {
    await store.close();
  }
  renameSync(tmp, file);
  syncDir(path.dirname(file));
  moveAside(dir, names);
  return { dir, file, outcome: 'migrated', collections };
}

/** The live documents of one datafile, in a temporary on-disk table (deleted on close). */
async function stage(datafile: string) {
  const db = new Database('');
  db.exec('CREATE TABLE staged (nid TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  const put = db.prepare('INSERT OR REPLACE INTO staged (nid, doc) VALUES (?, ?)');
  const del = db.prepare('DELETE FROM staged WHERE nid = ?');
  let pending = 0;
  const step = () => {
    if (pending === 0) db.exec('BEGIN');
    if (++pending === BATCH) {
      db.exec('COMMIT');
      pending = 0;
    }
  };
  let stats;
  try {
    stats = await readNedbDatafile(datafile, {
      put: (id, doc) => {
        step();
        put.run(id, encodeDoc(doc));
      },
      delete: (id) => {
        step();
        del.run(id);
      },
    });
  } catch (err) {
    db.close();
    throw err;
  }
  if (pending > 0) db.exec('COMMIT');
  return {
    corrupt: stats.corrupt,
    count: () => db.prepare<[], number>('SELECT count(*) FROM staged').pluck().get() ?? 0,
    docs: () => db.prepare<[], string>('SELECT doc FROM staged ORDER BY rowid').pluck().iterate(),
    close: () => db.close(),
  };
}

function moveAside(dir: string, names: string[]): void {
  let aside = path.join(dir, MIGRATED_DIR);
  if (existsSync(aside)) aside = `${aside}-${Date.now()}`;
  mkdirSync(aside, { mode: 0o700 });
  for (const name of names)
    for (const suffix of ['.db', '.db~']) {
      const from = path.join(dir, name + suffix);
      if (existsSync(from)) renameSync(from, path.join(aside, name + suffix));
    }
  syncDir(dir);
}

/** Makes the renames in `dir` durable. */
function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
