/**
 * One collection in SQLite: a table `(id INTEGER PRIMARY KEY, doc TEXT)` of JSON documents
 * (sqlite-json.ts) plus generated key columns for its indexes (sqlite-indexes.ts).
 *
 * better-sqlite3 is synchronous, so each operation runs whole, with no other statement of this
 * process between its steps; every write is one transaction, and the promise settles after it
 * committed. A read-modify-write (update, find-and-modify, upsert) reads, applies the update in JS
 * (doc-update.ts) and writes back inside one IMMEDIATE transaction.
 */
import { BadRequestError } from '@patchbay/contracts';
import type { Database, Statement } from 'better-sqlite3';
import type {
  Collection,
  Doc,
  BucketQuery,
  BucketRow,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexOptions,
  Sort,
  Update,
  UpdateResult,
} from './port';
import { applyProjection } from './doc-projection';
import { applyUpdate, assertUpdate, upsertSeed } from './doc-update';
import { sqliteBucketTotals } from './sqlite-bucket-totals';
import { compileFilter, ResidualParam } from './sqlite-filter';
import { keyColumn, quoteId, SqliteIndexes } from './sqlite-indexes';
import { decodeDoc, encodeDoc } from './sqlite-json';
import { keyExpression } from './sqlite-keys';
import type { ResidualMatcher } from './sqlite-matcher';
import { translateSqliteError } from './sqlite-errors';
import { StatementCache } from './sqlite-statements';

interface Row {
  id: number;
  doc: string;
}

/** Untyped: the store hands it out as the `Collection<T>` its caller asked for. */
export class SqliteCollection implements Collection<Doc> {
  private readonly table: string;
  private readonly indexes: SqliteIndexes;
  private readonly statements: StatementCache;

  constructor(
    private readonly db: Database,
    name: string,
    private readonly matcher: ResidualMatcher,
  ) {
    this.table = quoteId(name);
    this.statements = new StatementCache(db);
    db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)`);
    this.indexes = new SqliteIndexes(db, name, this.table);
  }

  async insertOne(doc: Doc): Promise<void> {
    await this.insertMany([doc]);
  }

  async insertMany(docs: Doc[]): Promise<void> {
    this.guard(() => {
      const insert = this.prepare(`INSERT INTO ${this.table} (doc) VALUES (?)`);
      this.db
        .transaction(() => {
          for (const doc of docs) this.indexes.written(Number(insert.run(encodeDoc(doc)).lastInsertRowid), doc);
        })
        .immediate();
    });
  }

  async findOne(filter: Filter, opts: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<Doc | null> {
    const [doc] = await this.find(filter, { ...opts, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, opts: FindOptions = {}): Promise<Doc[]> {
    return this.guard(() => {
      const rows = this.select<Pick<Row, 'doc'>>(filter, 'doc', opts).all();
      return rows.map((r) => applyProjection(decodeDoc(r.doc), opts.projection));
    });
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.guard(() => this.select<{ n: number }>(filter, 'count(*) AS n', {}).get()?.n ?? 0);
  }

  async updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(filter, update, 1);
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(filter, update, undefined);
  }

  async findOneAndUpdate(filter: Filter, update: Update, opts: FindOneAndUpdateOptions = {}): Promise<Doc | null> {
    return this.write(() => {
      assertUpdate(update);
      const row = this.select<Row>(filter, 'id, doc', { limit: 1 }).get();
      if (row) {
        const doc = decodeDoc(row.doc);
        if (applyUpdate(doc, update)) this.rewrite(row.id, doc);
        return opts.returnDocument === 'before' ? decodeDoc(row.doc) : doc;
      }
      if (!opts.upsert) return null;
      const doc = upsertSeed(filter);
      applyUpdate(doc, update);
      const inserted = this.prepare(`INSERT INTO ${this.table} (doc) VALUES (?)`).run(encodeDoc(doc));
      this.indexes.written(Number(inserted.lastInsertRowid), doc);
      return opts.returnDocument === 'before' ? null : doc;
    });
  }

  async replaceOne(filter: Filter, doc: Doc): Promise<UpdateResult> {
    return this.write(() => {
      if (Object.keys(doc).some((k) => k.startsWith('$')))
        throw new BadRequestError({ message: 'a replacement cannot hold update operators' });
      const row = this.select<Row>(filter, 'id, doc', { limit: 1 }).get();
      if (!row) return { matchedCount: 0, modifiedCount: 0 };
      const text = encodeDoc(doc);
      if (text === row.doc) return { matchedCount: 1, modifiedCount: 0 };
      this.rewrite(row.id, doc, text);
      return { matchedCount: 1, modifiedCount: 1 };
    });
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.write(() => {
      const row = this.select<Pick<Row, 'id'>>(filter, 'id', { limit: 1 }).get();
      if (!row) return 0;
      this.prepare(`DELETE FROM ${this.table} WHERE id = ?`).run(row.id);
      this.indexes.written(row.id, null);
      return 1;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.write(() => {
      const ids = this.select<Pick<Row, 'id'>>(filter, 'id', {})
        .all()
        .map((r) => r.id);
      const del = this.prepare(`DELETE FROM ${this.table} WHERE id = ?`);
      for (const id of ids) {
        del.run(id);
        this.indexes.written(id, null);
      }
      return ids.length;
    });
  }

  async createIndex(keys: Sort, opts: IndexOptions = {}): Promise<void> {
    this.guard(() => {
      this.indexes.create(keys, opts);
      this.statements.clear(); // plans made before may now have a better index
    });
  }

  async dropIndex(keys: Sort): Promise<void> {
    this.guard(() => {
      this.indexes.drop(keys);
      this.statements.clear();
    });
  }

  async bucketTotals(filter: Filter, query: BucketQuery): Promise<BucketRow[]> {
    return this.guard(() =>
      sqliteBucketTotals(
        {
          table: this.table,
          columnOf: this.indexes.columnOf,
          compile: (f) => this.where(f),
          // why: better-sqlite3 returns the rows untyped; their columns are the ones the query selected.
          all: (sql, params) => this.prepare(sql).all(...params) as Record<string, unknown>[],
        },
        filter,
        query,
      ),
    );
  }

  private update(filter: Filter, update: Update, limit: number | undefined): UpdateResult {
    return this.write(() => {
      assertUpdate(update);
      const rows = this.select<Row>(filter, 'id, doc', { limit }).all();
      let modifiedCount = 0;
      for (const row of rows) {
        const doc = decodeDoc(row.doc);
        if (!applyUpdate(doc, update)) continue;
        this.rewrite(row.id, doc);
        modifiedCount++;
      }
      return { matchedCount: rows.length, modifiedCount };
    });
  }

  private rewrite(id: number, doc: Doc, text = encodeDoc(doc)): void {
    this.prepare(`UPDATE ${this.table} SET doc = ? WHERE id = ?`).run(text, id);
    this.indexes.written(id, doc);
  }

  /**
   * The statement selecting `what` for `filter`: SQL for what the key columns answer exactly, the
   * residual through `pb_match`; sort by key columns (or the key expression where no column may
   * serve), then skip and limit. Bound with its parameters, ready to run; its rows are R, the columns `what` names.
   */
  private select<R>(filter: Filter, what: string, opts: FindOptions): { all(): R[]; get(): R | undefined } {
    const { where, params } = this.where(filter);
    let sql = `SELECT ${what} FROM ${this.table} WHERE ${where}`;
    const sort = Object.entries(opts.sort ?? {});
    if (sort.length > 0)
      sql +=
        ' ORDER BY ' +
        sort
          .map(
            ([p, d]) =>
              `${this.indexes.columnOf(p) ? keyColumn(p) : `(${keyExpression(p)})`} ${d === -1 ? 'DESC' : 'ASC'}`,
          )
          .join(', ');
    if (opts.limit || opts.skip) {
      sql += ' LIMIT ? OFFSET ?';
      params.push(opts.limit || -1, opts.skip ?? 0);
    }
    // why: better-sqlite3 returns the rows untyped; their columns are the ones `what` selected.
    const stmt = this.prepare(sql) as Statement<unknown[], R>;
    return {
      all: () => stmt.all(...params),
      get: () => stmt.get(...params),
    };
  }

  /** `filter` as a SQL condition and its parameters: what SQL answers, the residual through `pb_match`. */
  private where(filter: Filter): { where: string; params: unknown[] } {
    const compiled = compileFilter(filter, this.indexes.columnOf);
    const params = compiled.params.map((p) => (p instanceof ResidualParam ? this.matcher.register(p.filter) : p));
    if (!compiled.residual) return { where: compiled.where, params };
    params.push(this.matcher.register(compiled.residual));
    return { where: `${compiled.where} AND pb_match(doc, ?)`, params };
  }

  private prepare(sql: string): Statement {
    return this.statements.get(sql);
  }

  private write<R>(op: () => R): R {
    return this.guard(() => this.db.transaction(op).immediate());
  }

  /** Runs a whole operation: contract errors only leave it; the residual filters it registered go. */
  private guard<R>(op: () => R): R {
    try {
      return op();
    } catch (err) {
      throw translateSqliteError(err, (message) => this.indexes.uniqueNameFor(message));
    } finally {
      this.matcher.clear();
    }
  }
}
