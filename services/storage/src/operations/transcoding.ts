import { randomUUID } from 'node:crypto';
import {
  isTranscodingOf,
  transcodedBlobKey,
  TranscoderClient,
  UnprocessableError,
  Subjects,
  type ProbeReply,
  type SealedTranscodeReply,
  type TranscoderEvents,
  type TranscodingDoneEvent,
} from '@patchbay/contracts';
import type { Logger } from '@patchbay/platform';
import type { Static } from '@sinclair/typebox';
import type { StorageContext } from '../context';
import { planTranscoding, type TranscodingAsk, type TranscodingPlan } from '../domain/transcoding-plan';
import { probeMedia } from './media-probe';

type EventOf<S extends keyof typeof TranscoderEvents> = Static<(typeof TranscoderEvents)[S]['payload']>;

/**
 * Decides an upload's transcoding before anything is recorded. When the upload may need it (by the
 * sniffed format; a plain upload never waits for the transcoder), the source is probed first:
 * transcoding is promised only for decodable audio (422 naming `data` otherwise), and the plan
 * depends on the real format and bitrate (domain/transcoding-plan.ts).
 */
export async function planUploadTranscoding(
  ctx: StorageContext,
  ask: TranscodingAsk,
  blobKey: string,
  sniffedFormat: string | null,
  /** An encrypted upload's file key (base64): the probe reads its plaintext (decisions §43). */
  fileKey?: string,
): Promise<{ plan: TranscodingPlan | null; probed: ProbeReply | null }> {
  const asked = planTranscoding(ask, { format: sniffedFormat, bitrate: null });
  if (!asked) return { plan: null, probed: null };
  const probed = await probeMedia(ctx, { blob_key: blobKey, content_format: sniffedFormat }, asked.target, fileKey);
  if (probed.duration === null) throw UnprocessableError.field('data', 'the file is not decodable audio');
  return { probed, plan: planTranscoding(ask, { format: probed.format ?? sniffedFormat, bitrate: probed.bitrate }) };
}

/** How long the commit of an encrypted upload waits for its transcoding (within the request: decisions §43). */
const SEALED_TRANSCODE_TIMEOUT_MS = 120000;

/**
 * Upload-time transcoding of an encrypted upload, done by the transcoder within the commit: the
 * result is stored next to the source, encrypted to the same keys; the caller records it.
 */
export async function sealedTranscode(
  ctx: StorageContext,
  u: { blob_key: string },
  plan: TranscodingPlan,
  sourceFormat: string | null,
  fileKey: string,
  keys: { public_keys: string[] },
): Promise<SealedTranscodeReply & { blob_key: string }> {
  const outputKey = transcodedBlobKey(u.blob_key, plan.target, plan.bitrate, randomUUID().slice(0, 8));
  const reply = await new TranscoderClient(ctx.bus, { timeoutMs: SEALED_TRANSCODE_TIMEOUT_MS }).sealedTranscode({
    blob_key: u.blob_key,
    file_key: fileKey,
    source_format: sourceFormat,
    target: plan.target,
    bitrate: plan.bitrate,
    output_key: outputKey,
    recipients: keys.public_keys,
  });
  return { ...reply, blob_key: outputKey };
}

/*
 * Storage's side of upload-time transcoding, from the transcoder's events (consumed in service.ts):
 * progress while it runs, then the swap — the File describes the new data (format, mime type, size,
 * duration), the counters move by the size difference, and the old blob goes. The swap is a
 * compare-and-set on the source blob, so of two results for one file (a job done twice) only the
 * first is used; storage removes the other (and a result for a file deleted meanwhile).
 * `file_access_name` is not renamed: it got the target's extension at upload, so the `publish_uri`
 * handed out then stays valid (decisions §18).
 */

/** Progress of the job for the file's current source (a stale job's progress is ignored). */
export async function recordTranscodingProgress(
  ctx: StorageContext,
  { file_sid: sid, source_blob_key: source, progress }: EventOf<typeof Subjects.events.fileTranscodingProgress>,
): Promise<void> {
  await ctx.repo.files.updateOne(
    { file_sid: sid, blob_key: source, content_transcoding_progress: { $lt: 100 } },
    { $set: { content_transcoding_progress: Math.max(0, Math.min(99, Math.floor(progress))) } },
  );
}

/** The job failed: the file keeps its original data, and no longer says it is being transcoded. */
export async function recordTranscodingFailure(
  ctx: StorageContext,
  { file_sid: sid, source_blob_key: source, reason }: EventOf<typeof Subjects.events.fileTranscodingFailed>,
  log: Logger,
): Promise<void> {
  const cleared = await ctx.repo.files.updateOne(
    { file_sid: sid, blob_key: source },
    { $set: { content_transcoding_progress: null } },
  );
  if (cleared.matchedCount > 0) log.warn({ file_sid: sid, reason }, 'upload transcoding failed; original kept');
}

/** The job's result becomes the file's data, unless the file is gone or has new data already. */
export async function swapInTranscodedData(ctx: StorageContext, r: TranscodingDoneEvent, log: Logger): Promise<void> {
  const { repo } = ctx;
  const f = await repo.files.findOne({ file_sid: r.file_sid });
  if (!f) return discardResult(ctx, r, 'the file was deleted', log);
  if (f.blob_key !== r.source_blob_key) return discardResult(ctx, r, 'the file already has new data', log);
  const now = new Date();
  const updated = await repo.files.findOneAndUpdate(
    { file_sid: f.file_sid, blob_key: r.source_blob_key },
    {
      $set: {
        blob_key: r.blob_key,
        file_bytes: r.file_bytes,
        content_format: r.content_format,
        mime_type: r.mime_type,
        content_duration: r.content_duration,
        content_bitrate: r.content_bitrate,
        content_transcoding_progress: 100,
        date_modified: now,
        date_content_modified: now,
      },
    },
  );
  if (!updated) return discardResult(ctx, r, 'the file already has new data', log);
  const delta = r.file_bytes - f.file_bytes;
  await repo.containers.updateOne(
    { container_sid: f.container_sid },
    { $inc: f.threshold_include ? { total_bytes: delta, threshold_total_bytes: delta } : { total_bytes: delta } },
  );
  await ctx.blobs.delete(f.blob_key);
  await ctx.bus.publish(Subjects.events.fileUpdated, {
    file_sid: f.file_sid,
    partner_sid: f.partner_sid,
    file_access_name: f.file_access_name,
  });
  log.info({ file_sid: f.file_sid, format: r.content_format, bytes: r.file_bytes }, 'file transcoded');
}

/** A result storage does not use: removed, but only if it is a transcoding of that source (never any other blob). */
async function discardResult(ctx: StorageContext, e: TranscodingDoneEvent, why: string, log: Logger): Promise<void> {
  if (isTranscodingOf(e.blob_key, e.source_blob_key)) await ctx.blobs.delete(e.blob_key);
  log.info({ file_sid: e.file_sid, blob_key: e.blob_key }, `upload transcoding result not used: ${why}`);
}
