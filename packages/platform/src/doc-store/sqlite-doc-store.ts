/**
 * The embedded document store: SQLite through better-sqlite3, one database file per store (one per
 * service: services keep owning their data), a table per collection (sqlite-collection.ts).
 *
 * Durability: WAL journal; a write is acknowledged only after its transaction committed. With
 * `synchronous=NORMAL` (the default) a commit is written to the WAL but not fsynced: everything
 * acknowledged survives a crash or kill -9 of the process, and the last transactions before a power cut
 * may be lost (never corrupted). `FULL` fsyncs every commit (power-cut safe), at the price of an fsync,
 * which blocks the event loop, per write. The file is created
 * mode 0600 (SQLite gives its -wal and -shm files the database file's mode). One process per file:
 * the data directory's lock keeps a second process out; SQLite's own locking would make it wait.
 * Without `file` everything is in memory and gone on close (unit tests).
 */
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Collection, Doc, DocStore } from './port';
import { SqliteCollection } from './sqlite-collection';
import { createMetaTables, INDEX_TABLE } from './sqlite-indexes';
import { ResidualMatcher } from './sqlite-matcher';

export interface SqliteDocStoreOptions {
  /** The database file (created mode 0600 if missing). Omitted: in memory. */
  file?: string;
  /** `normal` (default): acknowledged writes survive a crash of the process; `full`: a power cut too. */
  synchronous?: 'full' | 'normal';
}

const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** How often the planner's statistics are checked (PRAGMA optimize re-analyzes only what changed). */
const OPTIMIZE_EVERY_MS = 5 * 60_000;

export class SqliteDocStore implements DocStore {
  private readonly db: Database.Database;
  private readonly matcher: ResidualMatcher;
  private readonly collections = new Map<string, SqliteCollection>();
  private closed = false;
  private readonly optimizer: NodeJS.Timeout;

  constructor(opts: SqliteDocStoreOptions = {}) {
    if (opts.file !== undefined) closeSync(openSync(path.resolve(opts.file), 'a', 0o600));
    this.db = new Database(opts.file === undefined ? ':memory:' : path.resolve(opts.file));
    if (opts.file !== undefined) this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${opts.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // A checkpoint never waits on readers here (one process); a wait only guards against a stray sqlite3 shell.
    this.db.pragma('busy_timeout = 5000');
    createMetaTables(this.db);
    this.matcher = new ResidualMatcher(this.db);
    // The query planner's statistics (sqlite_stat1), as SQLite advises for a long-lived connection:
    // gathered at open for every table that needs them, then again as tables grow. Without them the
    // planner rates any equality on an index as selective: `partner_sid = ? AND sid IN (…100)` walked
    // the partner's whole partner_sid index instead of the unique sid index (80 ms vs 0.2 ms at
    // 20,000 documents). analysis_limit keeps each ANALYZE to a sample (milliseconds at any size).
    this.db.pragma('analysis_limit = 1000');
    this.db.pragma('optimize = 0x10002');
    this.optimizer = setInterval(() => this.optimize(), OPTIMIZE_EVERY_MS).unref();
  }

  /** Refreshes the statistics of the tables this connection used whose size changed much (cheap otherwise). */
  private optimize(): void {
    if (!this.closed) this.db.pragma('optimize');
  }

  /** The same instance for the same name (its statements and index knowledge are shared). */
  collection<T extends object = Doc>(name: string): Collection<T> {
    if (this.closed) throw new Error('the document store is closed');
    if (!NAME.test(name) || name.startsWith('_patchbay') || name === INDEX_TABLE)
      throw new Error(`invalid collection name '${name}'`);
    let c = this.collections.get(name);
    if (!c) {
      c = new SqliteCollection(this.db, name, this.matcher);
      this.collections.set(name, c);
    }
    // why: documents are untyped at rest; T is only the caller's view of them (the port says so).
    return c as unknown as Collection<T>;
  }

  /** The names of the collections in the file (for the migration's checks and the CLI). */
  collectionNames(): string[] {
    return this.db
      .prepare<[], string>(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '\\_patchbay%' ESCAPE '\\'`,
      )
      .pluck()
      .all();
  }

  /** Runs `op` in one transaction: every write in it commits together or not at all. */
  transaction<R>(op: () => R): R {
    return this.db.transaction(op).immediate();
  }

  /** Closes the file (SQLite checkpoints the WAL into it); later use is refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.optimizer);
    this.db.pragma('optimize');
    this.db.close();
  }
}
