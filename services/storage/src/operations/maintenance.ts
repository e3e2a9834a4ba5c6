import { Subjects } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { planTranscoding, transcodingJob } from '../domain/transcoding-plan';
import { errorMessage } from '../error-message';
import { removeStaleUploads } from './uploads';
import { retryBlobDeletions } from './blob-deletions';
import { removeOrphanBlobs } from './orphan-blobs';
import { retryPendingCallbacks } from './voicemail-callbacks';
import { forgetExpiredUploadKeys } from './upload-idempotency';
import type { CopyCache } from '../copy-cache';

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
    const files = await repo.files.find(
      { container_sid: c.container_sid },
      { projection: { file_bytes: 1, threshold_include: 1 } },
    );
    const totals = { total_files: 0, total_bytes: 0, threshold_total_files: 0, threshold_total_bytes: 0 };
    for (const f of files) {
      totals.total_files += 1;
      totals.total_bytes += f.file_bytes;
      if (f.threshold_include) {
        totals.threshold_total_files += 1;
        totals.threshold_total_bytes += f.file_bytes;
      }
    }
    if (
      totals.total_files !== c.total_files ||
      totals.total_bytes !== c.total_bytes ||
      totals.threshold_total_files !== c.threshold_total_files ||
      totals.threshold_total_bytes !== c.threshold_total_bytes
    ) {
      ctx.log.warn(
        { container_sid: c.container_sid, was: { files: c.total_files, bytes: c.total_bytes }, now: totals },
        'container counters corrected',
      );
      await repo.containers.updateOne({ container_sid: c.container_sid }, { $set: totals });
    }
  }
  for (const [partnerSid, count] of perPartner) {
    await repo.limits.findOneAndUpdate({ partner_sid: partnerSid }, { $set: { containers: count } }, { upsert: true });
  }
}

/**
 * Enqueues again the upload-time transcoding of every file still waiting for it. The in-process
 * bus loses its jobs with the process (kill -9, a crash, a machine reboot), so without this such a
 * file stays at its last progress forever. The job is rebuilt from the record (the same plan as at
 * upload), under the same message ID as at upload, and doing it twice is harmless (a redo is
 * idempotent: storage swaps in one result, see operations/transcoding.ts). A record whose plan no
 * longer holds gives up its progress and keeps its data. Returns how many were enqueued.
 */
export async function requeueUnfinishedTranscoding(ctx: StorageContext): Promise<number> {
  const waiting = await ctx.repo.files.find({ content_transcoding_progress: { $gte: 0, $lt: 100 } });
  let queued = 0;
  for (const f of waiting) {
    let plan;
    try {
      plan = planTranscoding(f, { format: f.content_format, bitrate: f.content_bitrate ?? null });
    } catch (err) {
      plan = null;
      ctx.log.warn({ file_sid: f.file_sid, err: errorMessage(err) }, 'unfinished transcoding cannot be planned again');
    }
    if (!plan) {
      await ctx.repo.files.updateOne(
        { file_sid: f.file_sid, blob_key: f.blob_key },
        { $set: { content_transcoding_progress: null } },
      );
      continue;
    }
    await ctx.bus.enqueue(Subjects.transcoder.uploadJob, transcodingJob(f, plan), { msgId: `transcode-${f.file_sid}` });
    ctx.log.info(
      { file_sid: f.file_sid, target: plan.target, progress: f.content_transcoding_progress },
      'unfinished upload transcoding enqueued again',
    );
    queued += 1;
  }
  return queued;
}

/**
 * The periodic upkeep (and once just after start, once the service is ready: decisions §49): pending
 * Voicemail callbacks handed over again, external objects of deleted files deleted again, dead
 * uploads and orphan blobs removed, expired upload Idempotency-Keys forgotten, the blob store's own
 * incomplete writes dropped, and the cache of transcoded copies brought within its budget. Stops
 * between steps (and between batches of the orphan sweep) once `signal` is aborted.
 */
export async function runMaintenance(
  ctx: StorageContext,
  copies: Pick<CopyCache, 'reconcile'>,
  uploadStaleMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const steps: Array<() => Promise<unknown>> = [
    () => retryPendingCallbacks(ctx),
    () => retryBlobDeletions(ctx),
    () => removeStaleUploads(ctx, uploadStaleMs),
    () => forgetExpiredUploadKeys(ctx),
    () => removeOrphanBlobs(ctx, uploadStaleMs, signal),
    async () => ctx.blobs.sweepIncomplete?.(uploadStaleMs),
    () => copies.reconcile(),
  ];
  for (const step of steps) {
    if (signal?.aborted) return;
    await step();
  }
}
