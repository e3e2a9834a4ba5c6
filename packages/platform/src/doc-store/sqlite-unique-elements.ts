/**
 * Unique indexes over a field that holds arrays (MongoDB's unique multikey index: every element is a
 * key, and no element may appear in two documents). A SQLite index holds one key per row, so the
 * elements of such a field live in a side table per index, `"_patchbay_u:<collection>:<index>"`
 * (key PRIMARY KEY, id), kept in step with every write; the SQLite unique index itself leaves arrays
 * out (sqlite-indexes.ts), and a scalar is checked against the side table and an element against the
 * scalars. Single-field unique indexes only: a compound one over arrays is not part of the port.
 */
import type { Database } from 'better-sqlite3';
import { DuplicateKeyError } from '@patchbay/contracts';
import { reachAll } from './doc-paths';
import { encodeDoc } from './sqlite-json';
import { keyOf } from './sqlite-keys';
import { StatementCache } from './sqlite-statements';

export interface UniqueField {
  name: string;
  path: string;
  /** The SQL identifier of its key column. */
  column: string;
}

export const elementsTable = (collection: string, index: string): string =>
  `"${`_patchbay_u:${collection}:${index}`.replace(/"/g, '""')}"`;

export class UniqueElements {
  /**
   * Every write of a document runs three or four of these (a push send's writes spent 1.5 s of 10,000
   * preparing them before they were kept). Emptied when a side table is made or dropped.
   */
  private readonly statements: StatementCache;

  constructor(
    private readonly db: Database,
    private readonly collection: string,
    private readonly table: string,
  ) {
    this.statements = new StatementCache(db);
  }

  create(name: string): void {
    this.statements.clear();
    const table = elementsTable(this.collection, name);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (key PRIMARY KEY, id INTEGER NOT NULL)`);
    this.db.exec(`CREATE INDEX IF NOT EXISTS ${elementsTable(this.collection, `${name}:id`)} ON ${table} (id)`);
  }

  drop(name: string): void {
    this.statements.clear();
    this.db.exec(`DROP TABLE IF EXISTS ${elementsTable(this.collection, name)}`);
  }

  /** Brings the side tables in step with document `id` as now written (`doc` null: deleted). */
  written(fields: readonly UniqueField[], id: number, doc: unknown): void {
    for (const f of fields) {
      const side = elementsTable(this.collection, f.name);
      this.statements.get(`DELETE FROM ${side} WHERE id = ?`).run(id);
      if (doc === null) continue;
      const parts = f.path.split('.');
      const values = reachAll(doc, parts);
      const isArrayValued = values.arrays;
      if (!isArrayValued) {
        // A scalar (or missing) value: the SQLite unique index checks scalars; elements are here.
        const k = keyOf(values.values[0]);
        if (k && this.statements.get(`SELECT 1 FROM ${side} WHERE key = ? AND id <> ?`).get(k.key, id))
          throw new DuplicateKeyError({ index: f.name });
        continue;
      }
      const keys = new Map<string, unknown>();
      for (const v of values.values) {
        const k = keyOf(v)?.key ?? Buffer.from(`1${encodeDoc({ v })}`);
        keys.set(Buffer.isBuffer(k) ? `b${k.toString('latin1')}` : `${typeof k}${String(k)}`, k);
      }
      for (const key of keys.values()) {
        const taken =
          this.statements.get(`SELECT 1 FROM ${side} WHERE key = ? AND id <> ?`).get(key, id) ??
          this.statements.get(`SELECT 1 FROM ${this.table} WHERE ${f.column} = ? AND id <> ?`).get(key, id);
        if (taken) throw new DuplicateKeyError({ index: f.name });
        this.statements.get(`INSERT INTO ${side} (key, id) VALUES (?, ?)`).run(key, id);
      }
    }
  }
}
