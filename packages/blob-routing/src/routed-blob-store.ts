import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  BlobStoreUnavailableError,
  type BlobReader,
  type BlobStat,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type ReadOptions,
} from '@patchbay/platform';
import { parseExternalKey } from './external-key';
import type { StoreDirectory } from './store-directory';

/** Failures after which a store's adapter is rebuilt from the storage service's current answer. */
const STALE: ReadonlySet<string> = new Set(['bad_credentials', 'access_denied', 'invalid_config', 'bucket_missing']);

/**
 * The blob store every service is given: keys `ext/<store_id>/<key>` go to that external store
 * (found through the directory), every other key to Patchbay's own store. Sweeps and listings are
 * Patchbay's own store's only: nothing outside its own prefixes is ever listed or swept.
 */
export class RoutedBlobStore implements BlobStore {
  constructor(
    readonly platform: BlobStore,
    private readonly directory: StoreDirectory,
  ) {}

  async put(key: string, body: Readable, opts?: PutOptions): Promise<{ size: number }> {
    return this.route(key, (store, k) => store.put(k, body, opts));
  }

  async putFile(key: string, file: string, opts?: PutOptions): Promise<{ size: number }> {
    return this.route(key, (store, k) =>
      store.putFile ? store.putFile(k, file, opts) : store.put(k, fs.createReadStream(file), opts),
    );
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    return this.route(key, (store, k) => store.get(k, range));
  }

  /** Patchbay's own store's reader where it has one; undefined for an external store's key (streamed with `get`). */
  async openReader(key: string, opts?: ReadOptions): Promise<BlobReader | undefined> {
    if (parseExternalKey(key) || !this.platform.openReader) return undefined;
    return this.platform.openReader(key, opts);
  }

  /** Patchbay's own store's file where it keeps files; undefined for an external store's key. */
  async openFile(key: string): Promise<FileHandle | undefined> {
    if (parseExternalKey(key) || !this.platform.openFile) return undefined;
    return this.platform.openFile(key);
  }

  forgetOpen(match: (key: string) => boolean): void {
    this.platform.forgetOpen?.(match);
  }

  async stat(key: string): Promise<BlobStat> {
    return this.route(key, (store, k) => store.stat(k));
  }

  async delete(key: string): Promise<void> {
    return this.route(key, (store, k) => store.delete(k));
  }

  async sweepIncomplete(olderThanMs: number): Promise<number> {
    return (await this.platform.sweepIncomplete?.(olderThanMs)) ?? 0;
  }

  list(prefix: string): AsyncIterable<string> {
    if (!this.platform.list)
      return (async function* none() {
        /* Patchbay's own store cannot list */
      })();
    return this.platform.list(prefix);
  }

  async close(): Promise<void> {
    await this.directory.close();
    await this.platform.close?.();
  }

  private async route<T>(key: string, op: (store: BlobStore, key: string) => Promise<T>): Promise<T> {
    const ext = parseExternalKey(key);
    if (!ext) return op(this.platform, key);
    const store = await this.directory.open(ext.storeId);
    try {
      return await op(store, ext.key);
    } catch (err) {
      if (err instanceof BlobStoreUnavailableError && STALE.has(err.reason)) this.directory.evict(ext.storeId);
      throw err;
    }
  }
}
