import { setTimeout as sleep } from 'node:timers/promises';
import { OWN_BLOB_PREFIXES } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { fileSidsOf, orphanCandidates } from '../domain/orphan-blobs';

/** Blob keys looked up at once: one query on files and one on uploads per batch, never one per blob. */
export const ORPHAN_SWEEP_BATCH = 500;
/**
 * Milliseconds between two batches: the sweep runs beside the requests it must not slow down (and, in the
 * all-in-one, beside the services still starting), on the same event loop and the same database.
 */
const ORPHAN_SWEEP_PAUSE_MS = 50;

/**
 * Deletes blobs that belong to neither a File nor a pending upload (domain/orphan-blobs.ts) and were last written
 * more than `olderThanMs` ago. Runs after the service is ready (decisions §49): the blobs are listed and looked up
 * in batches of ORPHAN_SWEEP_BATCH with a pause between them, and the sweep stops between blobs once `signal` is
 * aborted (the service is stopping). Returns how many it removed.
 */
export async function removeOrphanBlobs(
  ctx: StorageContext,
  olderThanMs: number,
  signal?: AbortSignal,
): Promise<number> {
  const { blobs } = ctx;
  if (!blobs.list) return 0;
  let removed = 0;
  for (const prefix of OWN_BLOB_PREFIXES) {
    let batch: string[] = [];
    for await (const key of blobs.list(prefix)) {
      if (signal?.aborted) return removed;
      batch.push(key);
      if (batch.length < ORPHAN_SWEEP_BATCH) continue;
      removed += await removeBatch(ctx, batch, olderThanMs, signal);
      batch = [];
      await sleep(ORPHAN_SWEEP_PAUSE_MS);
    }
    if (batch.length > 0 && !signal?.aborted) removed += await removeBatch(ctx, batch, olderThanMs, signal);
  }
  if (removed > 0) ctx.log.warn({ removed }, 'removed orphan blobs');
  return removed;
}

async function removeBatch(
  ctx: StorageContext,
  keys: string[],
  olderThanMs: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  const sids = fileSidsOf(keys);
  if (sids.length === 0) return 0;
  const [files, uploads] = await Promise.all([
    ctx.repo.files.find({ file_sid: { $in: sids } }, { projection: { file_sid: 1, blob_key: 1 } }),
    ctx.repo.uploads.find({ file_sid: { $in: sids } }, { projection: { file_sid: 1 } }),
  ]);
  const candidates = orphanCandidates(
    keys,
    new Map(files.map((f) => [f.file_sid, f.blob_key])),
    new Set(uploads.map((u) => u.file_sid)),
  );
  let removed = 0;
  for (const key of candidates) {
    if (signal?.aborted) break;
    const stat = await ctx.blobs.stat(key).catch(() => undefined);
    if (!stat || Date.now() - stat.modified.getTime() < olderThanMs) continue;
    await ctx.blobs.delete(key);
    removed += 1;
  }
  return removed;
}
