import { NotFoundError, Subjects } from '@patchbay/contracts';
import type { BlobStore } from '@patchbay/platform';
import type { FileDoc } from '../repo';
import type { StorageContext } from './context';

export interface TranscodedResult {
  file_sid: string;
  /** The blob the job read; a result for an older blob (a redelivered job) is ignored. */
  source_blob_key: string;
  failed?: string;
  blob_key?: string;
  file_bytes?: number;
  content_format?: string;
  mime_type?: string;
  extension?: string;
  content_duration?: number | null;
  content_bitrate?: number | null;
}

/** What an upload-time transcoding job should produce for this file, or null for "store unchanged". */
export function transcodingTarget(f: Pick<FileDoc, 'type' | 'desired_format' | 'desired_bitrate' | 'content_format'>): { target: string; bitrate: number | null } | null {
  if (f.type !== 'audio') return null;
  const target = f.desired_format ?? (f.desired_bitrate !== null && f.content_format === 'mp3' ? 'mp3' : null);
  if (!target) return null;
  const bitrate = target === 'mp3' || target === 'ogg' || target === 'mp4' ? f.desired_bitrate : null;
  if (target === f.content_format && bitrate === null) return null;
  return { target, bitrate };
}

/** `<sid>.<old ext>` (the default form) follows the new format; a chosen access name is kept. */
function nextAccessName(f: FileDoc, extension: string): string {
  return f.file_access_name === f.file_sid || f.file_access_name.startsWith(`${f.file_sid}.`) ? `${f.file_sid}.${extension}` : f.file_access_name;
}

/**
 * Storage's side of upload-time transcoding: progress while it runs, then the swap — the File
 * describes the new data (format, mime type, size, duration, access-name extension), the counters
 * move by the size difference, and the old blob goes.
 */
export function transcodingHandlers(ctx: StorageContext, blobs: BlobStore) {
  const { repo } = ctx;
  return {
    [Subjects.storage.transcodingProgress]: async (payload: unknown) => {
      const { file_sid: sid, progress } = payload as { file_sid: string; progress: number };
      await repo.files.updateOne({ file_sid: String(sid), content_transcoding_progress: { $lt: 100 } }, { $set: { content_transcoding_progress: Math.max(0, Math.min(99, Math.floor(Number(progress) || 0))) } });
      return { ok: true };
    },
    [Subjects.storage.transcodingDone]: async (payload: unknown) => {
      const r = payload as TranscodedResult;
      const f = await repo.files.findOne({ file_sid: String(r.file_sid) });
      if (!f) throw new NotFoundError();
      if (f.blob_key !== r.source_blob_key) return { ignored: true };
      if (r.failed || !r.blob_key) {
        await repo.files.updateOne({ file_sid: f.file_sid, blob_key: r.source_blob_key }, { $set: { content_transcoding_progress: null } });
        ctx.log.warn({ file_sid: f.file_sid, reason: r.failed }, 'upload transcoding failed; original kept');
        return { ok: true };
      }
      const updated = await repo.files.findOneAndUpdate({ file_sid: f.file_sid, blob_key: r.source_blob_key }, { $set: {
        blob_key: r.blob_key, file_bytes: r.file_bytes, content_format: r.content_format, mime_type: r.mime_type,
        content_duration: r.content_duration ?? null, content_bitrate: r.content_bitrate ?? null, content_transcoding_progress: 100,
        file_access_name: nextAccessName(f, r.extension ?? r.content_format ?? 'bin'), date_modified: new Date(),
      } });
      if (!updated) return { ignored: true };
      const delta = (r.file_bytes ?? 0) - f.file_bytes;
      await repo.containers.updateOne({ container_sid: f.container_sid }, { $inc: f.threshold_include ? { total_bytes: delta, threshold_total_bytes: delta } : { total_bytes: delta } });
      await blobs.delete(f.blob_key);
      await ctx.bus.publish(Subjects.events.fileUpdated, { file_sid: f.file_sid, partner_sid: f.partner_sid, file_access_name: f.file_access_name });
      ctx.log.info({ file_sid: f.file_sid, format: r.content_format, bytes: r.file_bytes }, 'file transcoded');
      return { ok: true };
    },
  };
}
