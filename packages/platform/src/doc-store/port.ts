/**
 * The document store: a thin subset of the MongoDB Collection API, so the MongoDB adapter is a
 * pass-through and the embedded adapter speaks the same query language.
 *
 * Filters and updates are MongoDB query/update documents. Supported filter operators: equality,
 * $eq $ne $lt $lte $gt $gte $in $nin $exists $regex (+ $options 'i') $and $or $not $elemMatch
 * $bitsAnySet; dot paths; a path through an array matches when any element matches.
 * Supported update operators: $set $unset $inc. Dates are stored as Date objects.
 *
 * A collection is typed by its documents (`docs.collection<FileDoc>('files')`): what it returns and
 * takes, and its filters (`Filter<FileDoc>`, doc-filter.ts), so a misspelt field in a query does not
 * compile. A document type with an index signature, like the default `Doc`, takes any field.
 */
import type { CalendarUnit } from './calendar-buckets';
import type { Filter } from './doc-filter';

export type { Condition, DocPath, Filter, Operators, PathValue } from './doc-filter';

/** A document of no particular type: any fields. */
export type Doc = Record<string, unknown>;
export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, unknown>;
  $inc?: Record<string, number>;
}
/**
 * 1 ascending, -1 descending; keys are applied in insertion order. Values of different types sort in
 * MongoDB's order: null and missing first, then numbers, strings (by UTF-8 bytes), objects, booleans,
 * Dates. Sorting on a field that holds arrays is not part of the port (the stores differ).
 */
export type Sort = Record<string, 1 | -1>;
/** Inclusion (1) or exclusion (0) projection; dot paths allowed. `_id` is never returned. */
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface IndexOptions {
  unique?: boolean;
  /**
   * Documents lacking the (first) indexed field are not indexed. A unique index over one field holding
   * arrays refuses an element another document holds; a compound unique index over arrays is not part of
   * the port.
   */
  sparse?: boolean;
  name?: string;
}

export interface FindOneAndUpdateOptions {
  /** Return the document as it is after the update (default) or before. */
  returnDocument?: 'before' | 'after';
  /** Insert `filter`'s equality fields plus the update when nothing matches. */
  upsert?: boolean;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
}

/** One total of `bucketTotals`: how many documents (`count`), or the sum of a numeric field (`sum`), of
 * those whose field `where.path` equals `where.value` when `where` is set. A sum skips non-numbers. */
export type BucketMeasure = ({ count: true } | { sum: string }) & { where?: { path: string; value: string | number } };

/** What `bucketTotals` groups by and adds up. */
export interface BucketQuery {
  /** The Date field that places a document in its bucket. */
  dateField: string;
  /** The calendar buckets (calendar-buckets.ts) covering [from, to); documents outside [from, to) are left out. */
  unit: CalendarUnit;
  /** An IANA time zone (`UTC`, `Europe/Paris`). */
  timeZone: string;
  from: Date;
  to: Date;
  /** A second key: one row per bucket and value of this scalar field (null when missing). */
  by?: string;
  /** The totals, by name. */
  measures: Readonly<Record<string, BucketMeasure>>;
  /** At most this many rows are returned (the caller asks one more to tell "too many"). */
  maxRows: number;
}

/** A bucket that holds at least one matching document, with its totals (`key`: the `by` value). */
export interface BucketRow {
  /** The bucket's first instant (a `start` of calendarBuckets). */
  start: Date;
  key?: string | number | boolean | null;
  values: Record<string, number>;
}

/**
 * One collection. Documents are plain objects; the store's own `_id` never leaves the adapter.
 * A unique index violation rejects with DuplicateKeyError (a ConflictError).
 */
export interface Collection<T extends object = Doc> {
  insertOne(doc: T): Promise<void>;
  insertMany(docs: T[]): Promise<void>;
  findOne(filter: Filter<T>, opts?: Pick<FindOptions, 'projection' | 'sort'>): Promise<T | null>;
  find(filter: Filter<T>, opts?: FindOptions): Promise<T[]>;
  countDocuments(filter: Filter<T>): Promise<number>;
  updateOne(filter: Filter<T>, update: Update): Promise<UpdateResult>;
  updateMany(filter: Filter<T>, update: Update): Promise<UpdateResult>;
  /** Atomic find-and-modify of the first match. Null when nothing matched (and no upsert). */
  findOneAndUpdate(filter: Filter<T>, update: Update, opts?: FindOneAndUpdateOptions): Promise<T | null>;
  /** Replaces the whole first matching document (keeps its store identity). */
  replaceOne(filter: Filter<T>, doc: T): Promise<UpdateResult>;
  deleteOne(filter: Filter<T>): Promise<number>;
  deleteMany(filter: Filter<T>): Promise<number>;
  /** Idempotent: creating an index that exists is a no-op. */
  createIndex(keys: Sort, opts?: IndexOptions): Promise<void>;
  /**
   * Drops the index on exactly `keys` (the fields, in order, as createIndex was given them), so a
   * service can replace an index it no longer wants at start-up. Idempotent: no such index, or no
   * such collection, is a no-op.
   */
  dropIndex(keys: Sort): Promise<void>;
  /**
   * Totals of the documents matching `filter` per calendar bucket of a date field (and per value of a second
   * field), computed by the store: never a document read into the process. Rows of empty buckets are absent;
   * the order of rows is not defined. Optional: a collection that wraps another may not offer it.
   */
  bucketTotals?(filter: Filter<T>, query: BucketQuery): Promise<BucketRow[]>;
}

export interface DocStore {
  /** The collection `name`, seen as holding documents of type T (the store does not check them). */
  collection<T extends object = Doc>(name: string): Collection<T>;
  /** Flushes and closes. */
  close(): Promise<void>;
}
