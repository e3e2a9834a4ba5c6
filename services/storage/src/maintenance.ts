import type { BlobStore } from '@patchbay/platform';
import type { StorageContext } from './handlers/context';

/**
 * Recomputes every container's counters from its files and every partner's container count.
 * Counters move with single atomic updates, but a crash between the counter update and the file
 * insert/delete would leave them off by one; this makes a restart put them right.
 */
export async function reconcileCounters(ctx: StorageContext): Promise<void> {
  const { repo } = ctx;
  const containers = await repo.containers.find({});
  const perPartner = new Map<string, number>();
  for (const c of containers) {
    if (c.type === 'internal') perPartner.set(c.partner_sid, (perPartner.get(c.partner_sid) ?? 0) + 1);
    const files = await repo.files.find({ container_sid: c.container_sid }, { projection: { file_bytes: 1, threshold_include: 1 } });
    const totals = { total_files: 0, total_bytes: 0, threshold_total_files: 0, threshold_total_bytes: 0 };
    for (const f of files) {
      totals.total_files += 1; totals.total_bytes += f.file_bytes;
      if (f.threshold_include) { totals.threshold_total_files += 1; totals.threshold_total_bytes += f.file_bytes; }
    }
    if (totals.total_files !== c.total_files || totals.total_bytes !== c.total_bytes || totals.threshold_total_files !== c.threshold_total_files || totals.threshold_total_bytes !== c.threshold_total_bytes) {
      ctx.log.warn({ container_sid: c.container_sid, was: { files: c.total_files, bytes: c.total_bytes }, now: totals }, 'container counters corrected');
      await repo.containers.updateOne({ container_sid: c.container_sid }, { $set: totals });
    }
  }
  for (const [partnerSid, count] of perPartner) {
    await repo.limits.findOneAndUpdate({ partner_sid: partnerSid }, { $set: { containers: count } }, { upsert: true });
  }
}

/**
 * Deletes blobs that belong to neither a File nor a pending upload: `files/<partner>/<sid>[.<fmt>]`
 * (data, or a transcoding result whose file went) and `cache/<sid>/…` (transcoded copies).
 */
export async function sweepOrphanBlobs(ctx: StorageContext, blobs: BlobStore, olderThanMs: number): Promise<number> {
  if (!blobs.list) return 0;
  let removed = 0;
  const owner = (key: string) => (key.startsWith('cache/') ? key.split('/')[1] : (key.split('/').pop() ?? '').split('.')[0]);
  for (const prefix of ['files/', 'cache/']) for await (const key of blobs.list(prefix)) {
    const fileSid = owner(key);
    const file = await ctx.repo.files.findOne({ file_sid: fileSid }, { projection: { blob_key: 1 } });
    if ((file && (prefix === 'cache/' || file.blob_key === key)) || (await ctx.repo.uploads.findOne({ file_sid: fileSid }))) continue;
    const stat = await blobs.stat(key).catch(() => undefined);
    if (!stat || Date.now() - stat.modified.getTime() < olderThanMs) continue;
    await blobs.delete(key);
    removed += 1;
  }
  if (removed > 0) ctx.log.warn({ removed }, 'removed orphan blobs');
  return removed;
}
