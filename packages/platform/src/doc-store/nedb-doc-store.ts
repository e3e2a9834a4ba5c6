/**
 * The embedded document store: @seald-io/nedb, one append-only datafile per collection
 * (`<dir>/<name>.db`), or everything in memory when no `dir` is given.
 *
 * NeDB keeps each collection wholly in memory and appends every write to its file; the file is
 * rewritten (compacted) when a collection loads, periodically, and on close. Single process only:
 * two processes on one directory would overwrite each other's writes.
 */
import path from 'node:path';
import type { Doc, DocStore, Collection } from './port';
import { NedbCollection } from './nedb-collection';
import { openNedbFile } from './nedb-internals';

export interface NedbDocStoreOptions {
  /** Directory of the datafiles (NeDB creates it on first load). Omitted: in memory, gone on close. */
  dir?: string;
  /** How often loaded collections are compacted; default 10 minutes, 0 disables. */
  compactEveryMs?: number;
}

const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export class NedbDocStore implements DocStore {
  private readonly dir: string | undefined;
  private readonly collections = new Map<string, NedbCollection>();
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(opts: NedbDocStoreOptions = {}) {
    this.dir = opts.dir === undefined ? undefined : path.resolve(opts.dir);
    const every = opts.compactEveryMs ?? 10 * 60_000;
    // Our own timer rather than NeDB's setAutocompactionInterval: NeDB's is not unref'd (it would keep
    // the process alive) and it is per collection; one sweep covers every loaded collection.
    if (this.dir !== undefined && every > 0) {
      this.timer = setInterval(() => {
        // A failed compaction leaves the append-only file valid; the next sweep retries.
        for (const c of this.collections.values()) c.compact().catch(() => undefined);
      }, every);
      this.timer.unref();
    }
  }

  /** The same instance for the same name, so its write lock and index names are shared. */
  collection<T extends Doc = Doc>(name: string): Collection<T> {
    if (this.closed) throw new Error('the document store is closed');
    if (!NAME.test(name)) throw new Error(`invalid collection name '${name}'`);
    let c = this.collections.get(name);
    if (!c) {
      const filename = this.dir === undefined ? undefined : path.join(this.dir, `${name}.db`);
      c = new NedbCollection(() => openNedbFile(filename));
      this.collections.set(name, c);
    }
    // Documents are untyped at rest; T is only the caller's view of them.
    return c as unknown as Collection<T>;
  }

  /** Waits for queued writes, compacts every loaded datafile, and refuses later use. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.collections.values()].map((c) => c.close()));
  }
}
