/**
 * The production document store: a thin pass-through to the official MongoDB driver.
 *
 * Only three things happen on the way: `_id` is projected out of every document returned, documents
 * are shallow-copied before insert (the driver would otherwise write an ObjectId `_id` into the
 * caller's object), and driver errors are translated (E11000 → DuplicateKeyError naming the index,
 * lost connections → UnavailableError, anything else → a generic 500 with the driver error as cause).
 */
import { MongoClient, MongoServerError, type Collection as MongoCollection, type Db, type Document } from 'mongodb';
import type {
  BucketQuery,
  BucketRow,
  Collection,
  Doc,
  DocStore,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexOptions,
  Projection,
  Sort,
  Update,
  UpdateResult,
} from './port';
import { mongoBucketPipeline } from './mongo-bucket-pipeline';
import { translateMongoError } from './mongo-errors';
import { isJsonObject } from '../basics/json-object';

/** Server error codes dropIndex reads as "already gone". */
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

export interface MongoDocStoreOptions {
  /** `mongodb://` or `mongodb+srv://` connection string. */
  url: string;
  /** Database name; defaults to the one in the URL, else the driver's default (`test`). */
  dbName?: string;
}

export class MongoDocStore implements DocStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly database: Db,
  ) {}

  /** Connects (and verifies the connection) before resolving; UnavailableError when it cannot. */
  static async connect(opts: MongoDocStoreOptions): Promise<MongoDocStore> {
    return guard(async () => {
      const client = new MongoClient(opts.url);
      await client.connect();
      return new MongoDocStore(client, client.db(opts.dbName));
    });
  }

  /** The underlying database, for adapters that share the connection (GridFS). */
  get db(): Db {
    return this.database;
  }

  collection<T extends object = Doc>(name: string): Collection<T> {
    // why: documents are untyped at rest; T is only the caller's view of them (the port says so).
    return new MongoDocCollection(this.database.collection(name)) as unknown as Collection<T>;
  }

  async close(): Promise<void> {
    await guard(() => this.client.close());
  }
}

/** Untyped: the store hands it out as the `Collection<T>` its caller asked for. */
class MongoDocCollection implements Collection<Doc> {
  /**
   * The collection's indexes as listed once by this object (createIndex), so a start-up that asks for indexes it
   * already has sends one listIndexes, not one createIndexes per index (decisions §49). Forgotten by dropIndex.
   */
  private known: Promise<Document[]> | undefined;

  constructor(private readonly c: MongoCollection<Document>) {}

  insertOne(doc: Doc): Promise<void> {
    return guard(async () => {
      await this.c.insertOne({ ...doc });
    });
  }

  insertMany(docs: Doc[]): Promise<void> {
    // The driver refuses an empty batch; the port treats it as nothing to do.
    return guard(async () => {
      if (docs.length > 0) await this.c.insertMany(docs.map((d) => ({ ...d })));
    });
  }

  findOne(filter: Filter, opts: Pick<FindOptions, 'projection' | 'sort'> = {}): Promise<Doc | null> {
    return guard(() => this.c.findOne<Doc>(filter, { projection: withoutId(opts.projection), sort: opts.sort }));
  }

  find(filter: Filter, opts: FindOptions = {}): Promise<Doc[]> {
    const { sort, skip, limit } = opts;
    return guard(() =>
      this.c.find<Doc>(filter, { projection: withoutId(opts.projection), sort, skip, limit }).toArray(),
    );
  }

  countDocuments(filter: Filter): Promise<number> {
    return guard(() => this.c.countDocuments(filter));
  }

  updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return guard(async () => counts(await this.c.updateOne(filter, update)));
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return guard(async () => counts(await this.c.updateMany(filter, update)));
  }

  findOneAndUpdate(filter: Filter, update: Update, opts: FindOneAndUpdateOptions = {}): Promise<Doc | null> {
    const options = {
      returnDocument: opts.returnDocument ?? 'after',
      upsert: opts.upsert ?? false,
      projection: { _id: 0 },
    } as const;
    return guard(() => this.c.findOneAndUpdate(filter, update, options));
  }

  replaceOne(filter: Filter, doc: Doc): Promise<UpdateResult> {
    return guard(async () => counts(await this.c.replaceOne(filter, { ...doc })));
  }

  deleteOne(filter: Filter): Promise<number> {
    return guard(async () => (await this.c.deleteOne(filter)).deletedCount);
  }

  deleteMany(filter: Filter): Promise<number> {
    return guard(async () => (await this.c.deleteMany(filter)).deletedCount);
  }

  createIndex(keys: Sort, opts: IndexOptions = {}): Promise<void> {
    // Only the options that are set, so a repeated call sends the identical spec and stays a no-op.
    const options = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined && v !== false));
    return guard(async () => {
      const listing = (this.known ??= this.c.indexes().catch((err: unknown) => {
        if (err instanceof MongoServerError && err.code === NAMESPACE_NOT_FOUND) return []; // no collection yet
        if (this.known === listing) this.known = undefined;
        throw err;
      }));
      const known = await listing;
      if (known.some((index) => sameIndex(index, keys, options))) return;
      await this.c.createIndex(keys, options);
      known.push({ key: keys, ...options });
    });
  }

  bucketTotals(filter: Filter, query: BucketQuery): Promise<BucketRow[]> {
    const { pipeline, read } = mongoBucketPipeline(filter, query);
    return guard(async () => read(await this.c.aggregate(pipeline).toArray()));
  }

  dropIndex(keys: Sort): Promise<void> {
    this.known = undefined;
    const wanted = Object.entries(keys);
    const same = (key: Document): boolean => {
      const have = Object.entries(key);
      return have.length === wanted.length && have.every(([k, v], i) => k === wanted[i][0] && v === wanted[i][1]);
    };
    return guard(async () => {
      let indexes: Document[];
      try {
        indexes = await this.c.indexes();
      } catch (err) {
        if (err instanceof MongoServerError && err.code === NAMESPACE_NOT_FOUND) return; // no collection, no index
        throw err;
      }
      for (const index of indexes.filter((i) => same(i.key))) {
        try {
          await this.c.dropIndex(String(index.name));
        } catch (err) {
          // Dropped meanwhile by another replica starting at the same time.
          if (!(err instanceof MongoServerError && (err.code === INDEX_NOT_FOUND || err.code === NAMESPACE_NOT_FOUND)))
            throw err;
        }
      }
    });
  }
}

/** An index listed by the server is the one asked for: the same fields in the same order, the same options. */
function sameIndex(index: Document, keys: Sort, options: Record<string, unknown>): boolean {
  const key: unknown = index.key;
  const have = isJsonObject(key) ? Object.entries(key) : [];
  const want = Object.entries(keys);
  const flag = (v: unknown) => (v === undefined || v === false ? undefined : v);
  return (
    have.length === want.length &&
    have.every(([k, v], i) => k === want[i][0] && v === want[i][1]) &&
    flag(index.unique) === flag(options.unique) &&
    flag(index.sparse) === flag(options.sparse) &&
    flag(index.expireAfterSeconds) === flag(options.expireAfterSeconds) &&
    (options.name === undefined || index.name === options.name)
  );
}

/** `_id` is never returned; every projection, inclusion or exclusion, accepts `_id: 0`. */
function withoutId(projection: Projection | undefined): Document {
  return { ...projection, _id: 0 };
}

function counts(r: { matchedCount: number; modifiedCount: number }): UpdateResult {
  return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount };
}

async function guard<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (err) {
    throw translateMongoError(err);
  }
}
