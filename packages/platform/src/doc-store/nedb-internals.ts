/**
 * The one place that touches @seald-io/nedb directly. Its typings are loose (`any` queries, a cursor
 * typed as a single document) and two things we need are internal (`model.match`, `model.modify`);
 * everything else in the adapter goes through the narrow, typed facade below.
 */
import Datastore from '@seald-io/nedb';
import type { Doc, Sort } from './port';

/** A stored document: NeDB adds its own string `_id`, which never leaves the adapter. */
export type NedbDoc = Doc & { _id: string };
export type NedbQuery = Record<string, unknown>;

export interface NedbFindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

export interface NedbFile {
  readonly persistent: boolean;
  load(): Promise<void>;
  /** Deep copies of the matching documents, `_id` included. */
  find(query: NedbQuery, opts?: NedbFindOptions): Promise<NedbDoc[]>;
  count(query: NedbQuery): Promise<number>;
  /** All-or-nothing: a unique violation in any document inserts none. */
  insert(docs: Doc[]): Promise<void>;
  /** Applies `update` to every match and returns the documents as they are afterwards. */
  update(query: NedbQuery, update: Doc): Promise<NedbDoc[]>;
  remove(query: NedbQuery, multi: boolean): Promise<number>;
  /** No-op when an index on the same field set exists (NeDB ignores the options then). */
  ensureIndex(fields: string[], opts: { unique: boolean; sparse: boolean }): Promise<void>;
  /** Removes the index on this field set (persisted); a no-op when there is none. */
  removeIndex(fields: string[]): Promise<void>;
  /** Rewrites the append-only datafile with one line per live document. */
  compact(): Promise<void>;
  /** The indexes by NeDB's name for them (field names sorted, joined by ','), `_id` included. */
  indexes(): ReadonlyMap<string, NedbIndexView>;
  /** Runs `task` in NeDB's operation queue, so no write runs while it reads the indexes. */
  exclusive<R>(task: () => R): Promise<R>;
}

/** A node of an index's AVL tree (@seald-io/binary-search-tree): the documents sharing one key. */
export interface NedbIndexNode {
  /** Absent only on the root of an empty tree. */
  key?: unknown;
  data: NedbDoc[];
  left: NedbIndexNode | null;
  right: NedbIndexNode | null;
}

/**
 * One index, read-only. A compound index's key is an object compared field by field in the order of
 * `fields`, which NeDB sorts by name: an index created on (partner_sid, date_stop, dr_sid) is ordered
 * by date_stop, then dr_sid, then partner_sid.
 */
export interface NedbIndexView {
  readonly fields: readonly string[];
  readonly sparse: boolean;
  /** The tree's root, read at call time (AVL rotations replace it). */
  root(): NedbIndexNode;
  /** The documents whose key equals `key` (the array NeDB holds; do not modify). */
  matching(key: unknown): readonly NedbDoc[];
}

interface RawIndex {
  fieldName: string;
  sparse: boolean;
  tree: { tree: NedbIndexNode };
  getMatching(value: unknown): NedbDoc[];
}

/** Opens (lazily: call `load`) one collection; `filename` undefined means in memory. */
export function openNedbFile(filename: string | undefined): NedbFile {
  const ds = new Datastore<Doc>(filename ? { filename } : { inMemoryOnly: true });
  return {
    persistent: filename !== undefined,
    load: () => ds.loadDatabaseAsync(),
    async find(query, opts = {}) {
      let cursor = ds.findAsync(query);
      if (opts.sort && Object.keys(opts.sort).length > 0) cursor = cursor.sort(opts.sort);
      if (opts.skip) cursor = cursor.skip(opts.skip);
      if (opts.limit) cursor = cursor.limit(opts.limit);
      // The typings declare the awaited cursor as one document; it is the array of matches.
      return (await cursor) as unknown as NedbDoc[];
    },
    count: async (query) => (await ds.countAsync(query)) as unknown as number,
    async insert(docs) {
      if (docs.length > 0) await ds.insertAsync(docs);
    },
    async update(query, update) {
      const res = await ds.updateAsync(query, update, { multi: true, returnUpdatedDocs: true });
      return (res.affectedDocuments ?? []) as NedbDoc[];
    },
    remove: (query, multi) => ds.removeAsync(query, { multi }),
    ensureIndex: (fields, opts) =>
      ds.ensureIndexAsync({ fieldName: fields.length === 1 ? fields[0] : fields, ...opts }),
    async removeIndex(fields) {
      // NeDB names an index by its fields, sorted and joined by ','; removing writes a line to the datafile.
      const name = [...fields].sort().join(',');
      if (Object.hasOwn((ds as unknown as { indexes: Record<string, unknown> }).indexes, name))
        await ds.removeIndexAsync(name);
    },
    compact: () => ds.compactDatafileAsync(),
    indexes() {
      // NeDB's typings do not declare `indexes`; every Datastore has it (name → Index).
      const raw = (ds as unknown as { indexes: Record<string, RawIndex> }).indexes;
      return new Map(
        Object.entries(raw).map(([name, index]) => [
          name,
          {
            fields: index.fieldName.split(','),
            sparse: index.sparse,
            root: () => index.tree.tree,
            matching: (key: unknown) => index.getMatching(key),
          },
        ]),
      );
    },
    // The executor's queue expects a function returning a promise.
    exclusive: (task) =>
      (ds as unknown as { executor: { pushAsync<R>(t: () => Promise<R>): Promise<R> } }).executor.pushAsync(async () =>
        task(),
      ),
  };
}

/** A unique index refused a write; `key` is the offending value (an object for compound indexes). */
export function isUniqueViolation(err: unknown): err is Error & { key: unknown } {
  return err instanceof Error && (err as { errorType?: unknown }).errorType === 'uniqueViolated';
}

// NeDB bug: a range on an indexed field that holds arrays yields a document once per element in
// range (its `$in` look-up de-duplicates, its range look-up does not), so finds returned duplicates.
// Patched once, on NeDB's Index class, which only this adapter uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal file of NeDB, not in its exports map
const IndexClass = require('@seald-io/nedb/lib/indexes.js') as {
  prototype: { getBetweenBounds(this: unknown, query: unknown): NedbDoc[] };
};
const betweenBounds = IndexClass.prototype.getBetweenBounds;
IndexClass.prototype.getBetweenBounds = function dedupedBetweenBounds(query) {
  const docs = betweenBounds.call(this, query);
  const unique = new Set(docs);
  return unique.size === docs.length ? docs : [...unique];
};

interface NedbModel {
  match(doc: unknown, query: NedbQuery): boolean;
  modify(doc: Doc, update: Doc): Doc;
  compareThings(a: unknown, b: unknown): number;
  getDotValue(doc: unknown, path: string): unknown;
  deepCopy<D>(doc: D): D;
}
// NeDB ships no typings for lib/model; it is the matcher and modifier NeDB itself uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal file of NeDB, not in its exports map
const model = require('@seald-io/nedb/lib/model.js') as NedbModel;

/** NeDB's own matcher, for values that are not documents (operator-form `$elemMatch`). */
export function nedbMatch(doc: unknown, query: NedbQuery): boolean {
  return model.match(doc, query);
}

/** Applies update operators to a copy of `doc` exactly as an NeDB update would. */
export function nedbModify(doc: Doc, update: Doc): Doc {
  return model.modify(doc, update);
}

/** NeDB's total order over values (types first, then values), as its sorts and indexes use it. */
export function nedbCompare(a: unknown, b: unknown): number {
  return model.compareThings(a, b);
}

/** The value at a dot path as NeDB reads it (an array when the path runs through one). */
export function nedbDotValue(doc: unknown, path: string): unknown {
  return model.getDotValue(doc, path);
}

/** A deep copy, as NeDB returns documents from `find`. */
export function nedbDeepCopy<D>(doc: D): D {
  return model.deepCopy(doc);
}
