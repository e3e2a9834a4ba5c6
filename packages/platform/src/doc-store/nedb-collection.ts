/**
 * One NeDB-backed collection with MongoDB semantics.
 *
 * Design note. NeDB runs every single operation atomically through its own queue, but it has no
 * find-and-modify, no matched-vs-modified counts and an upsert that builds its document from the
 * (translated) query. Those are composed here from several NeDB operations, so every write of a
 * collection is serialised through a per-collection lock: a composed write then sees no other write
 * between its steps. This is correct because NeDB is single-process by design. Reads do not lock.
 */
import { isDeepStrictEqual } from 'node:util';
import { ApiError, DuplicateKeyError } from '@patchbay/contracts';
import type {
  Collection,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexOptions,
  Sort,
  Update,
  UpdateResult,
} from './port';
import { isUniqueViolation, nedbModify, type NedbFile, type NedbQuery } from './nedb-internals';
import { compoundInCandidates, findAmong, hasInList } from './nedb-compound-in';
import { orderedScan } from './nedb-ordered-scan';
import { applyProjection } from './doc-projection';
import { isPlainObject, toNedbQuery, upsertSeed } from './nedb-query';

interface UniqueIndex {
  fields: string[];
  name: string;
}

export class NedbCollection<T extends Doc = Doc> implements Collection<T> {
  private loading: Promise<NedbFile> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  /** Unique indexes created through this collection, by sorted field list, to name DuplicateKeyErrors. */
  private readonly unique = new Map<string, UniqueIndex>();
  private closed = false;

  constructor(private readonly open: () => NedbFile) {}

  insertOne(doc: T): Promise<void> {
    return this.write((f) => f.insert([undefinedToNull(doc)]));
  }

  insertMany(docs: T[]): Promise<void> {
    return this.write((f) => f.insert(docs.map(undefinedToNull)));
  }

  async findOne(filter: Filter, opts: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...opts, limit: 1 });
    return doc ?? null;
  }

  /**
   * An `$in` over a compound index's keys reads just those keys (nedb-compound-in.ts); with a limit,
   * an ordered index scan when one fits (nedb-ordered-scan.ts); otherwise NeDB's own find.
   */
  find(filter: Filter, opts: FindOptions = {}): Promise<T[]> {
    return this.read(async (f) => {
      const query = toNedbQuery(filter);
      const planned =
        opts.limit || hasInList(query)
          ? await f.exclusive(() => {
              const candidates = compoundInCandidates(f, query);
              if (candidates) return findAmong(candidates, query, opts);
              return opts.limit ? orderedScan(f, filter, query, opts)?.docs : undefined;
            })
          : undefined;
      const docs = planned ?? (await f.find(query, opts));
      return docs.map((d) => applyProjection(d, opts.projection) as T);
    });
  }

  countDocuments(filter: Filter): Promise<number> {
    return this.read((f) => f.count(toNedbQuery(filter)));
  }

  updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(filter, update, 1);
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(filter, update, 0);
  }

  findOneAndUpdate(filter: Filter, update: Update, opts: FindOneAndUpdateOptions = {}): Promise<T | null> {
    return this.write(async (f) => {
      assertOperators(update);
      const [before] = await f.find(toNedbQuery(filter), { limit: 1 });
      if (before) {
        const [after] = await f.update({ _id: before._id }, undefinedToNull(update as Doc));
        return applyProjection(opts.returnDocument === 'before' ? before : after, undefined) as T;
      }
      if (!opts.upsert) return null;
      const inserted = nedbModify(undefinedToNull(upsertSeed(filter)), undefinedToNull(update as Doc));
      await f.insert([inserted]);
      return opts.returnDocument === 'before' ? null : (applyProjection(inserted, undefined) as T);
    });
  }

  replaceOne(filter: Filter, doc: T): Promise<UpdateResult> {
    return this.write(async (f) => {
      if (Object.keys(doc).some((k) => k.startsWith('$')))
        throw new Error('a replacement document cannot hold update operators');
      const [before] = await f.find(toNedbQuery(filter), { limit: 1 });
      if (!before) return { matchedCount: 0, modifiedCount: 0 };
      const [after] = await f.update({ _id: before._id }, undefinedToNull(doc));
      return { matchedCount: 1, modifiedCount: isDeepStrictEqual(before, after) ? 0 : 1 };
    });
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.write((f) => f.remove(toNedbQuery(filter), false));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.write((f) => f.remove(toNedbQuery(filter), true));
  }

  createIndex(keys: Sort, opts: IndexOptions = {}): Promise<void> {
    const fields = Object.keys(keys);
    const index = { fields, name: opts.name ?? fields.map((k) => `${k}_${keys[k]}`).join('_') };
    const id = [...fields].sort().join(',');
    return this.write(async (f) => {
      if (fields.length === 0) throw new Error('createIndex needs at least one field');
      if (opts.unique && !this.unique.has(id)) this.unique.set(id, index);
      await f.ensureIndex(fields, { unique: Boolean(opts.unique), sparse: Boolean(opts.sparse) });
    });
  }

  dropIndex(keys: Sort): Promise<void> {
    const fields = Object.keys(keys);
    return this.write(async (f) => {
      this.unique.delete([...fields].sort().join(','));
      await f.removeIndex(fields);
    });
  }

  /** Compacts the datafile (no-op in memory or when never loaded), after every queued write. */
  compact(): Promise<void> {
    if (!this.loading) return Promise.resolve();
    return this.write(async (f) => {
      if (f.persistent) await f.compact();
    });
  }

  /** Waits for queued writes, compacts, and refuses every later operation. */
  async close(): Promise<void> {
    await this.compact();
    this.closed = true;
  }

  private update(filter: Filter, update: Update, limit: number): Promise<UpdateResult> {
    return this.write(async (f) => {
      assertOperators(update);
      const before = await f.find(toNedbQuery(filter), { limit });
      if (before.length === 0) return { matchedCount: 0, modifiedCount: 0 };
      const after = await f.update({ _id: { $in: before.map((d) => d._id) } }, undefinedToNull(update as Doc));
      const old = new Map(before.map((d) => [d._id, d]));
      const modifiedCount = after.filter((d) => !isDeepStrictEqual(d, old.get(d._id))).length;
      return { matchedCount: before.length, modifiedCount };
    });
  }

  private file(): Promise<NedbFile> {
    if (this.closed) return Promise.reject(new Error('the document store is closed'));
    this.loading ??= (async () => {
      const f = this.open();
      await f.load();
      return f;
    })().catch((err: unknown) => {
      this.loading = undefined; // let the next call retry the load
      throw err;
    });
    return this.loading;
  }

  private async read<R>(op: (f: NedbFile) => Promise<R>): Promise<R> {
    try {
      return await op(await this.file());
    } catch (err) {
      throw await this.translate(err);
    }
  }

  /** Runs `op` after every earlier write of this collection has settled. */
  private write<R>(op: (f: NedbFile) => Promise<R>): Promise<R> {
    const run = this.tail.then(() => this.read(op));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async translate(err: unknown): Promise<ApiError> {
    if (err instanceof ApiError) return err;
    if (isUniqueViolation(err)) return new DuplicateKeyError(await this.indexFor(err.key), { cause: err });
    return new ApiError(500, 'store_error', 'document store error', [], { cause: err });
  }

  /** NeDB's error names the value, not the index: find the unique index that value belongs to. */
  private async indexFor(key: unknown): Promise<string | undefined> {
    const all = [...this.unique.values()];
    if (isPlainObject(key)) {
      const fields = Object.keys(key).sort().join(',');
      return all.find((i) => [...i.fields].sort().join(',') === fields)?.name;
    }
    const single = all.filter((i) => i.fields.length === 1);
    if (single.length <= 1) return single[0]?.name;
    const f = await this.file();
    for (const i of single) if ((await f.count({ [i.fields[0]]: key } as NedbQuery)) > 0) return i.name;
    return undefined;
  }
}

/**
 * The MongoDB driver stores an `undefined` field as null (its default `ignoreUndefined: false`);
 * NeDB would keep it as undefined in memory and drop it on disk. Stored the MongoDB way here.
 */
function undefinedToNull<D>(value: D): D {
  if (value === undefined) return null as D;
  if (Array.isArray(value)) return value.map(undefinedToNull) as D;
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, undefinedToNull(v)])) as D;
  return value;
}

/** The port's updates are operator documents; a plain document would silently replace in NeDB. */
function assertOperators(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys.every((k) => k.startsWith('$')))
    throw new Error('an update needs update operators ($set, $unset, $inc)');
}
