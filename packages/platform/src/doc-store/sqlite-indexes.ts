/**
 * The indexes of one SQLite collection.
 *
 * An index over dot paths is a SQLite index over generated (virtual) key columns, one per path
 * (`"k:<path>"`, sqlite-keys.ts), so the `sqlite3` shell sees plain columns. What MongoDB knows of
 * an index and SQLite does not (its port name, its key order, unique, sparse) is kept in the table
 * `_patchbay_indexes`; the paths where some document held an array (MongoDB's "multikey") in
 * `_patchbay_multikey`. A key column answers comparisons only while its path is not multikey: one
 * key per document cannot stand for every element of an array (sqlite-filter.ts).
 *
 * Unique: the key of null and of a missing field is a value (-Infinity), so a missing field
 * counts as a value, as in MongoDB. Sparse: a partial index `WHERE json_type(doc, <first path>) IS
 * NOT NULL` leaves out the documents lacking the first field (the port's meaning).
 */
import { BadRequestError } from '@patchbay/contracts';
import type { Database } from 'better-sqlite3';
import type { IndexOptions, Sort } from './port';
import { crossesArray } from './doc-paths';
import type { KeyColumn } from './sqlite-filter';
import { ARRAY_KEY_SQL, jsonPath, keyExpression, sqlString } from './sqlite-keys';
import { decodeDoc } from './sqlite-json';
import { UniqueElements, type UniqueField } from './sqlite-unique-elements';

interface IndexInfo {
  name: string;
  sqlName: string;
  keys: [string, 1 | -1][];
  unique: boolean;
  sparse: boolean;
}

/** A row of INDEX_TABLE: one index of one collection. */
interface IndexRow {
  name: string;
  sql_name: string;
  /** JSON of the index's [path, direction] pairs, as this module wrote them. */
  keys: string;
  is_unique: number;
  is_sparse: number;
}

export const INDEX_TABLE = '_patchbay_indexes';
export const MULTIKEY_TABLE = '_patchbay_multikey';

/** Creates the store's own tables (idempotent). */
export function createMetaTables(db: Database): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${INDEX_TABLE} (collection TEXT NOT NULL, name TEXT NOT NULL, sql_name TEXT NOT NULL,` +
      ` keys TEXT NOT NULL, is_unique INTEGER NOT NULL, is_sparse INTEGER NOT NULL, PRIMARY KEY (collection, name))`,
  );
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${MULTIKEY_TABLE} (collection TEXT NOT NULL, path TEXT NOT NULL,` +
      ` PRIMARY KEY (collection, path))`,
  );
}

export const quoteId = (name: string): string => `"${name.replace(/"/g, '""')}"`;
export const keyColumn = (path: string): string => quoteId(`k:${path}`);

export class SqliteIndexes {
  private indexes: IndexInfo[] = [];
  private columns = new Set<string>();
  /** Per write, once for each document (kept with `columns` and `indexes` by reload): */
  private columnParts: [string, string[]][] = [];
  private unique: UniqueField[] = [];
  private readonly multikey = new Set<string>();
  private readonly elements: UniqueElements;

  constructor(
    private readonly db: Database,
    private readonly collection: string,
    private readonly table: string,
  ) {
    this.elements = new UniqueElements(db, collection, table);
    this.reload();
    const paths = db.prepare<[string], string>(`SELECT path FROM ${MULTIKEY_TABLE} WHERE collection = ?`).pluck();
    for (const path of paths.all(collection)) this.multikey.add(path);
  }

  /** The key column a filter or sort on `path` may use, if any (sqlite-filter.ts). */
  columnOf = (path: string): KeyColumn | undefined => {
    if (!this.columns.has(path) || this.multikey.has(path)) return undefined;
    const column = keyColumn(path);
    const leading = this.indexes.filter((i) => i.keys[0][0] === path);
    // A plain index serves any query; a partial one (unique: no arrays; sparse: no missing field) only a
    // query that repeats its WHERE terms, which sqlite-filter.ts adds where they hold.
    if (leading.length === 0 || leading.some((i) => !i.unique && !i.sparse)) return { column };
    const index = leading[0];
    return {
      column,
      ...(index.unique && index.keys.length === 1 && { partial: `${column} IS NOT ${ARRAY_KEY_SQL}` }),
      ...(index.sparse && { sparse: sparseTerm(path) }),
    };
  };

  /**
   * Keeps what SQLite cannot know in step with document `id` as just written (`doc` null: deleted), in the
   * caller's transaction: the indexed paths where it holds an array become multikey, and the elements of a
   * unique index's arrays go to its side table (DuplicateKeyError when one is taken).
   */
  written(id: number, doc: unknown): void {
    if (doc !== null)
      for (const [path, parts] of this.columnParts) {
        if (this.multikey.has(path) || !crossesArray(doc, parts)) continue;
        this.db
          .prepare(`INSERT OR IGNORE INTO ${MULTIKEY_TABLE} (collection, path) VALUES (?, ?)`)
          .run(this.collection, path);
        this.multikey.add(path);
      }
    if (this.unique.length > 0) this.elements.written(this.unique, id, doc);
  }

  /** Creates the index unless one on the same keys exists; throws SQLite's unique error over duplicates. */
  create(keys: Sort, opts: IndexOptions): void {
    const entries = Object.entries(keys);
    if (entries.length === 0) throw new BadRequestError({ message: 'createIndex needs at least one field' });
    if (this.find(entries)) return;
    const name = opts.name ?? entries.map(([k, d]) => `${k}_${d}`).join('_');
    const sqlName = quoteId(`${this.collection}:${name}`);
    // On failure (duplicates under a new unique index) SQLite rolls the DDL back; reload forgets it here too.
    try {
      this.createIn(entries, name, sqlName, opts);
    } finally {
      this.reload();
    }
  }

  private createIn(entries: [string, 1 | -1][], name: string, sqlName: string, opts: IndexOptions): void {
    this.db.transaction(() => {
      for (const [path] of entries) this.addColumn(path);
      const cols = entries.map(([p, d]) => `${keyColumn(p)} ${d === -1 ? 'DESC' : 'ASC'}`).join(', ');
      // A single-field unique index leaves arrays to its side table (sqlite-unique-elements.ts).
      const single = opts.unique && entries.length === 1;
      const terms = [
        ...(single ? [`${keyColumn(entries[0][0])} IS NOT ${ARRAY_KEY_SQL}`] : []),
        ...(opts.sparse ? [sparseTerm(entries[0][0])] : []),
      ];
      const where = terms.length > 0 ? ` WHERE ${terms.join(' AND ')}` : '';
      this.db.exec(`CREATE ${opts.unique ? 'UNIQUE ' : ''}INDEX ${sqlName} ON ${this.table} (${cols})${where}`);
      if (single) this.elements.create(name);
      this.db
        .prepare(`INSERT OR REPLACE INTO ${INDEX_TABLE} VALUES (?, ?, ?, ?, ?, ?)`)
        .run(this.collection, name, sqlName, JSON.stringify(entries), Number(!!opts.unique), Number(!!opts.sparse));
      // Documents stored before the column existed may hold arrays on its path.
      for (const [path] of entries) if (!this.multikey.has(path)) this.scanArrays(path);
      this.reload();
      if (single) this.fillElements(name, entries[0][0]);
    })();
  }

  drop(keys: Sort): void {
    const found = this.find(Object.entries(keys));
    if (!found) return;
    this.db.transaction(() => {
      this.db.exec(`DROP INDEX IF EXISTS ${found.sqlName}`);
      this.elements.drop(found.name);
      this.db.prepare(`DELETE FROM ${INDEX_TABLE} WHERE collection = ? AND name = ?`).run(this.collection, found.name);
    })();
    this.reload();
  }

  /** The port name of the unique index SQLite's error message names (`UNIQUE constraint failed: t.c1, t.c2`). */
  uniqueNameFor(message: string): string | undefined {
    const listed = message.replace(/^UNIQUE constraint failed: /, '');
    const table = this.table.slice(1, -1).replace(/""/g, '"');
    return this.indexes.find((i) => i.unique && i.keys.map(([p]) => `${table}.k:${p}`).join(', ') === listed)?.name;
  }

  private find(entries: [string, unknown][]): IndexInfo | undefined {
    return this.indexes.find(
      (i) =>
        i.keys.length === entries.length && i.keys.every(([p, d], n) => p === entries[n][0] && d === entries[n][1]),
    );
  }

  private addColumn(path: string): void {
    if (this.columns.has(path)) return;
    this.db.exec(
      `ALTER TABLE ${this.table} ADD COLUMN ${keyColumn(path)} GENERATED ALWAYS AS (${keyExpression(path)}) VIRTUAL`,
    );
    this.columns.add(path);
    this.columnParts.push([path, path.split('.')]);
  }

  /** The single-field unique indexes (those with a side table of array elements). */
  private uniqueFields(): UniqueField[] {
    return this.indexes
      .filter((i) => i.unique && i.keys.length === 1)
      .map((i) => ({ name: i.name, path: i.keys[0][0], column: keyColumn(i.keys[0][0]) }));
  }

  /** Puts the elements of the arrays already stored into a new unique index's side table. */
  private fillElements(name: string, path: string): void {
    const field = this.uniqueFields().filter((f) => f.name === name);
    const rows = this.db
      .prepare<[], { id: number; doc: string }>(
        `SELECT id, doc FROM ${this.table} WHERE ${keyColumn(path)} = ${ARRAY_KEY_SQL}`,
      )
      .all();
    for (const row of rows) this.elements.written(field, row.id, decodeDoc(row.doc));
  }

  private scanArrays(path: string): void {
    const hit = this.db.prepare(`SELECT 1 FROM ${this.table} WHERE ${keyColumn(path)} = x'32' LIMIT 1`).get();
    if (!hit) return;
    this.db
      .prepare(`INSERT OR IGNORE INTO ${MULTIKEY_TABLE} (collection, path) VALUES (?, ?)`)
      .run(this.collection, path);
    this.multikey.add(path);
  }

  private reload(): void {
    const rows = this.db
      .prepare<[string], IndexRow>(`SELECT * FROM ${INDEX_TABLE} WHERE collection = ?`)
      .all(this.collection);
    this.indexes = rows.map((r) => ({
      name: r.name,
      sqlName: r.sql_name,
      // why: the text is the pairs this module wrote when it created the index.
      keys: JSON.parse(r.keys) as [string, 1 | -1][],
      unique: r.is_unique === 1,
      sparse: r.is_sparse === 1,
    }));
    const cols = this.db
      .prepare<[string], string>(`SELECT name FROM pragma_table_xinfo(?)`)
      .pluck()
      .all(this.table.slice(1, -1));
    this.columns = new Set(cols.filter((n) => n.startsWith('k:')).map((n) => n.slice(2)));
    this.columnParts = [...this.columns].map((p) => [p, p.split('.')]);
    this.unique = this.uniqueFields();
  }
}

function sparseTerm(path: string): string {
  return `json_type(doc, ${sqlString(jsonPath(path.split('.')))}) IS NOT NULL`;
}
