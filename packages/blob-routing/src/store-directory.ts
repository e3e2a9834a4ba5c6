import { createHash } from 'node:crypto';
import {
  ApiError,
  BlobStoreOpenReplySchema,
  NotFoundError,
  Subjects,
  UnavailableError,
  compileValidator,
  unwrapReply,
  type BlobStoreOpenReply,
} from '@patchbay/contracts';
import type { BlobStore, Bus, Logger } from '@patchbay/platform';
import { EXTERNAL_LIMITS, openExternalStore } from './external-store';

const validateReply = compileValidator(BlobStoreOpenReplySchema);

/** Finds the external store of a store id. */
export interface StoreDirectory {
  open(storeId: string): Promise<BlobStore>;
  /** Forgets a store (its credentials were refused, its attributes changed): the next open asks again. */
  evict(storeId: string): void;
  close(): Promise<void>;
}

interface Entry {
  digest: string;
  store: Promise<BlobStore>;
  checkedAt: number;
}

/**
 * The store directory every process that reads or writes blobs uses: asks the storage service
 * (`svc.storage.blob-stores.open`) what a store id is, builds the adapter once, and keeps it per
 * store id and attributes. Every `ttlMs` it asks again; the same attributes keep the same adapter
 * (and its connections), changed ones (new credentials) build a new one. Credentials live only in
 * this process's memory; they are never logged.
 */
export class BusStoreDirectory implements StoreDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<BlobStore>>();

  constructor(
    private readonly bus: Bus,
    private readonly opts: {
      timeoutMs: number;
      /** EXTERNAL_STORAGE_ALLOW_PRIVATE: partners' stores may reach non-public addresses. */
      allowPrivateAddresses: boolean;
      ttlMs?: number;
      log?: Logger;
    },
  ) {}

  open(storeId: string): Promise<BlobStore> {
    const entry = this.entries.get(storeId);
    if (entry && Date.now() - entry.checkedAt < (this.opts.ttlMs ?? 30_000)) return entry.store;
    let p = this.pending.get(storeId);
    if (!p) {
      p = this.refresh(storeId).finally(() => this.pending.delete(storeId));
      this.pending.set(storeId, p);
    }
    return p;
  }

  evict(storeId: string): void {
    this.entries.delete(storeId);
  }

  async close(): Promise<void> {
    const stores = [...this.entries.values()].map((e) => e.store);
    this.entries.clear();
    await Promise.all(stores.map(async (s) => (await s.catch(() => undefined))?.close?.()));
  }

  private async refresh(storeId: string): Promise<BlobStore> {
    const described = await this.describe(storeId);
    const digest = createHash('sha256')
      .update(JSON.stringify([described.type, described.attributes]))
      .digest('hex');
    const known = this.entries.get(storeId);
    if (known && known.digest === digest) {
      known.checkedAt = Date.now();
      return known.store;
    }
    const store = openExternalStore(described.type, described.attributes, {
      ...EXTERNAL_LIMITS,
      allowPrivateAddresses: this.opts.allowPrivateAddresses,
    });
    this.entries.set(storeId, { digest, store, checkedAt: Date.now() });
    store.catch(() => this.entries.delete(storeId));
    if (known) this.opts.log?.info({ store_id: storeId }, 'external store attributes changed: adapter rebuilt');
    return store;
  }

  private async describe(storeId: string): Promise<BlobStoreOpenReply> {
    try {
      return validateReply(
        unwrapReply(
          await this.bus.request(
            Subjects.storage.blobStoreOpen,
            { store_id: storeId },
            { timeoutMs: this.opts.timeoutMs },
          ),
        ),
      );
    } catch (err) {
      if (err instanceof NotFoundError)
        throw new UnavailableError({ message: 'the storage this file was stored in is no longer known', cause: err });
      if (err instanceof ApiError && err.status >= 500) throw err;
      throw new UnavailableError({ message: 'the storage service did not say where this file is stored', cause: err });
    }
  }
}
