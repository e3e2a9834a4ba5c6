import { randomUUID } from 'node:crypto';
import {
  hasErrorCode,
  COPY_LEASE_MS,
  COPY_USE_MS,
  fileSidOfBlobKey,
  cachePrefixOf,
  type CopyClaimReply,
} from '@patchbay/contracts';
import type { BlobStore, Collection, Logger } from '@patchbay/platform';
import type { CopyDoc, FileDoc } from './domain/documents';

/**
 * The cache of download-time transcoded copies (`cache/<file_sid>/…`), kept within a budget in
 * bytes (TRANSCODE_CACHE_BYTES; messages/copies.ts has the protocol). One record per copy: who is
 * making it (a lease the maker renews), its size once stored, when it was last read. Every change of
 * a record is a compare-and-set on its `token`, so several storage replicas (MongoDB) agree on one
 * maker and one evicter. Eviction takes the least recently used copies first and never one read in
 * the last COPY_USE_MS (readers of long downloads say so again); a directory store's reader keeps an
 * evicted file open to its end anyway.
 */
export class CopyCache {
  private chain: Promise<unknown> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly copies: Collection<CopyDoc>,
    private readonly files: Collection<FileDoc>,
    private readonly blobs: BlobStore,
    private readonly budgetBytes: number,
    private readonly log: Logger,
  ) {}

  /** The copy is ready, or the caller is to have it made (a fresh lease), or someone else is making it. */
  async claim(key: string, fileSid: string): Promise<CopyClaimReply> {
    const now = Date.now();
    const doc = await this.copies.findOne({ key });
    if (doc?.state === 'ready') {
      const stat = await this.blobs.stat(key).catch(() => undefined);
      if (stat && stat.size > 0) return { state: 'ready', size: stat.size };
      // The record outlived its blob (removed by hand, a crash between delete and record): made again.
    } else if (doc && doc.lease_until !== null && new Date(doc.lease_until).getTime() > now) {
      return doc.state === 'making' && doc.live ? { state: 'busy', live: doc.live } : { state: 'busy' };
    }
    const token = randomUUID();
    const making = {
      state: 'making',
      token,
      lease_until: new Date(now + COPY_LEASE_MS),
      size: 0,
      live: null,
    } satisfies Partial<CopyDoc>;
    if (!doc) {
      try {
        await this.copies.insertOne({
          ...making,
          key,
          file_sid: fileSid,
          last_used: new Date(now),
          in_use_until: new Date(0),
        });
      } catch (err) {
        if (hasErrorCode(err, 'duplicate_key')) return { state: 'busy' }; // another claim was first
        throw err;
      }
      return { state: 'yours', token };
    }
    const taken = await this.copies.updateOne({ key, token: doc.token }, { $set: making });
    if (taken.matchedCount === 0) return { state: 'busy' };
    if (doc.state === 'making')
      this.log.warn({ key }, 'a transcoded copy was being made by a maker that stopped answering: made again');
    return { state: 'yours', token };
  }

  /**
   * The maker is alive: its lease goes on (and `live`, where it streams the copy as it is made, is
   * told to those who claim it meanwhile). False when the lease is no longer its own.
   */
  async renew(key: string, token: string, live?: string): Promise<boolean> {
    const lease = { lease_until: new Date(Date.now() + COPY_LEASE_MS) };
    const r = await this.copies.updateOne({ key, token, state: 'making' }, { $set: live ? { ...lease, live } : lease });
    return r.matchedCount > 0;
  }

  /** The copy is in the blob store: counted, then the cache is brought back within its budget. */
  async stored(key: string, token: string, size: number): Promise<void> {
    const now = Date.now();
    await this.copies.updateOne(
      { key, token, state: 'making' },
      {
        $set: {
          state: 'ready',
          token: randomUUID(),
          lease_until: null,
          live: null,
          size,
          last_used: new Date(now),
          in_use_until: new Date(now + COPY_USE_MS),
        },
      },
    );
    // Its file went while the copy was being made (deleteFile ran before this record was ready).
    const fileSid = fileSidOfBlobKey(key);
    if (fileSid && !(await this.files.findOne({ file_sid: fileSid }, { projection: { file_sid: 1 } }))) {
      await this.forgetFile(fileSid);
      return;
    }
    await this.enforce();
  }

  async release(key: string, token: string): Promise<void> {
    await this.copies.deleteOne({ key, token, state: 'making' });
  }

  /** These copies are being read: last used now, and not evicted for COPY_USE_MS. */
  async used(keys: string[]): Promise<void> {
    const now = Date.now();
    await this.copies.updateMany(
      { key: { $in: keys }, state: 'ready' },
      { $set: { last_used: new Date(now), in_use_until: new Date(now + COPY_USE_MS) } },
    );
  }

  /** A file's copies: records and blobs (its deletion, or a copy stored after it). */
  async forgetFile(fileSid: string): Promise<void> {
    await this.copies.deleteMany({ file_sid: fileSid });
    if (this.blobs.list) for await (const key of this.blobs.list(cachePrefixOf(fileSid))) await this.blobs.delete(key);
  }

  /**
   * Counts copies no record knows (made before this cache was kept, or a record lost): they take
   * space, so they count, as least recently used. Part of storage's periodic maintenance (operations/maintenance.ts).
   */
  async reconcile(): Promise<void> {
    if (!this.blobs.list) return;
    for await (const key of this.blobs.list('cache/')) {
      const fileSid = fileSidOfBlobKey(key);
      if (!fileSid || (await this.copies.findOne({ key }))) continue;
      const stat = await this.blobs.stat(key).catch(() => undefined);
      if (!stat) continue;
      await this.copies
        .insertOne({
          key,
          file_sid: fileSid,
          state: 'ready',
          token: randomUUID(),
          lease_until: null,
          size: stat.size,
          last_used: stat.modified,
          in_use_until: new Date(0),
        })
        .catch((err: unknown) => {
          if (!hasErrorCode(err, 'duplicate_key')) throw err;
        });
    }
    await this.enforce();
  }

  /** Evicts least recently used copies until the stored ones fit the budget (one pass at a time per replica). */
  enforce(): Promise<void> {
    const next = this.chain.then(() => this.evict());
    this.chain = next.catch((err: unknown) => this.log.error({ err }, 'transcoded copies could not be evicted'));
    return next;
  }

  private async evict(): Promise<void> {
    const now = Date.now();
    const stored = await this.copies.find({ state: 'ready' }, { sort: { last_used: 1 } });
    let total = stored.reduce((n, c) => n + c.size, 0);
    let evicted = 0;
    let inUse = false;
    for (const c of stored) {
      if (total <= this.budgetBytes) break;
      if (new Date(c.in_use_until).getTime() > now) {
        inUse = true;
        continue;
      }
      // Claimed for eviction first: a claim meanwhile waits (busy) instead of reading a blob going away.
      const token = randomUUID();
      const won = await this.copies.updateOne(
        { key: c.key, token: c.token, state: 'ready' },
        { $set: { state: 'evicting', token, lease_until: new Date(now + COPY_LEASE_MS) } },
      );
      if (won.matchedCount === 0) continue;
      await this.blobs.delete(c.key);
      await this.copies.deleteOne({ key: c.key, token });
      total -= c.size;
      evicted += 1;
    }
    if (evicted > 0)
      this.log.info({ evicted, bytes: total, budget: this.budgetBytes }, 'transcoded copies evicted (LRU)');
    // Over budget only because copies are being read: look again once their use has run out.
    if (total > this.budgetBytes && inUse && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = undefined;
        void this.enforce().catch(() => undefined);
      }, COPY_USE_MS);
      this.retry.unref();
    }
  }

  stop(): void {
    clearTimeout(this.retry);
  }
}
