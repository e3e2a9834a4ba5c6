import { TranscoderClient, type ProbeReply } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import type { FileDoc } from '../domain/documents';
import { errorMessage } from '../error-message';

/*
 * Audio files get `content_duration` (and a better `content_format`) from ffprobe, which runs in
 * the transcoder (the only image with ffmpeg). Without a transcoder the file is still stored and
 * the duration stays null: probing is description, not a condition of the upload.
 */

/**
 * How long storage waits for the transcoder's ffprobe of a media file: its one probe timeout. A
 * commit probes at most once, and the gateway waits at least 30 s for a commit (gateway
 * upload/upload-flow.ts), so a probe that hangs still leaves the commit time to answer. (An
 * external container's check is another kind of probe: it runs within the request's deadline,
 * external-deadline.ts.)
 */
const MEDIA_PROBE_TIMEOUT_MS = 15000;

/**
 * `target`: the format the file is to be transcoded to. The transcoder then also checks that it can
 * write it, and answers 503 naming what it lacks (no ffmpeg, no encoder) before the upload is accepted.
 */
export function probeMedia(
  ctx: StorageContext,
  f: Pick<FileDoc, 'blob_key' | 'content_format'>,
  target?: string,
  /** The blob is an encrypted upload being committed: its file key (base64; decisions §43). */
  fileKey?: string,
): Promise<ProbeReply> {
  return new TranscoderClient(ctx.bus, { timeoutMs: MEDIA_PROBE_TIMEOUT_MS }).probe({
    blob_key: f.blob_key,
    format: f.content_format,
    ...(target ? { target } : {}),
    ...(fileKey ? { file_key: fileKey } : {}),
  });
}

/** Describes a stored media file (duration, bitrate, format) from a probe; best effort: a failure leaves it as is. */
export async function describeMedia(ctx: StorageContext, f: FileDoc): Promise<void> {
  if (!f.mime_type.startsWith('audio/') && !f.mime_type.startsWith('video/')) return;
  try {
    const r = await probeMedia(ctx, f);
    await ctx.repo.files.updateOne(
      { file_sid: f.file_sid },
      {
        $set: {
          content_duration: r.duration,
          content_bitrate: r.bitrate,
          ...(r.format ? { content_format: r.format } : {}),
        },
      },
    );
  } catch (err) {
    ctx.log.warn({ file_sid: f.file_sid, err: errorMessage(err) }, 'probe failed; content_duration left null');
  }
}
