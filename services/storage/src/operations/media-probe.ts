import { hasErrorCode, TranscoderClient, UnprocessableError, type ProbeReply } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import type { FileDoc } from '../domain/documents';
import { probeSettled } from '../domain/probe-retry';
import { errorMessage } from '../error-message';
import type { ProbeAttempt } from '../probes/probe-queue';

/*
 * Audio files get `content_duration` (and a better `content_format`) from ffprobe, which runs in
 * the transcoder (the only image with ffmpeg). A commit probes once, within the request; when that
 * fails (the transcoder is slow, frozen, away, or the bus is down) the file is still stored and its
 * probe is retried from the durable probe queue until it answers or shows the file is not media
 * (decisions §49): no acknowledged file keeps a null duration because of a passing fault.
 */

/**
 * Asks the transcoder's ffprobe about a blob, waiting STORAGE_PROBE_TIMEOUT_MS (default PROBE_WAIT_MS, 15 s:
 * the transcoder's own ffprobe limit, PROBE_RUN_MS, plus the blob's copy to its scratch; the gateway waits at
 * least 30 s for a commit, gateway upload/upload-flow.ts, so a probe that hangs still leaves the commit time
 * to answer). `target`: the format the file is to be transcoded to; the transcoder then also
 * checks that it can write it, and answers 503 naming what it lacks before the upload is accepted.
 */
export function probeMedia(
  ctx: StorageContext,
  f: Pick<FileDoc, 'blob_key' | 'content_format'>,
  target?: string,
  /** The blob is an encrypted upload being committed: its file key (base64; decisions §43). */
  fileKey?: string,
): Promise<ProbeReply> {
  return new TranscoderClient(ctx.bus, { timeoutMs: ctx.probe.timeoutMs }).probe({
    blob_key: f.blob_key,
    format: f.content_format,
    ...(target ? { target } : {}),
    ...(fileKey ? { file_key: fileKey } : {}),
  });
}

/** When a queued probe of a file just recorded is first tried: after the commit's own probe answered or gave up. */
export function queuedProbeDue(ctx: StorageContext, now = Date.now()): Date {
  return new Date(now + ctx.probe.timeoutMs + ctx.probe.retry.firstMs);
}

/**
 * The commit's own probe of a media file just recorded (its queued probe is scheduled already): described now when
 * the transcoder answers, else left to the queue, logged once with what happens next.
 */
export async function describeNewMedia(ctx: StorageContext, f: FileDoc): Promise<void> {
  const r = await describeMedia(ctx, f);
  if (r.settled) {
    await ctx.probes.forget?.(f.file_sid).catch(() => undefined);
    return;
  }
  ctx.log.warn(
    { file_sid: f.file_sid, err: r.reason, retry_in_ms: ctx.probe.timeoutMs + ctx.probe.retry.firstMs },
    'media probe failed; the file is stored and its probe is queued to be retried until the transcoder answers',
  );
}

/** One attempt of a queued probe: the file as it is now, probed unless there is nothing left to find out. */
export async function runQueuedProbe(ctx: StorageContext, fileSid: string, failures: number): Promise<ProbeAttempt> {
  const f = await ctx.repo.files.findOne({ file_sid: fileSid });
  if (!f || probeSettled(f)) return { settled: true };
  const r = await describeMedia(ctx, f);
  if (r.settled) ctx.log.info({ file_sid: fileSid, queued_attempts: failures + 1 }, 'queued media probe done');
  else ctx.log.debug({ file_sid: fileSid, queued_attempts: failures + 1, err: r.reason }, 'queued media probe failed');
  return r;
}

/**
 * Describes a stored media file (duration, bitrate, format) from a probe. Settled when the probe answered, or showed
 * the file is not decodable media (recorded on the file as `media_probe: 'not_media'`, its duration left null), or its
 * blob is gone; not settled (with the reason) when the transcoder or the bus failed: worth trying again.
 */
async function describeMedia(ctx: StorageContext, f: FileDoc): Promise<ProbeAttempt> {
  let r: ProbeReply;
  try {
    r = await probeMedia(ctx, f);
  } catch (err) {
    if (err instanceof UnprocessableError) return notMedia(ctx, f, errorMessage(err));
    if (hasErrorCode(err, 'blob_not_found')) {
      ctx.log.warn({ file_sid: f.file_sid, err: errorMessage(err) }, 'media probe: the blob is gone; not probed');
      return { settled: true };
    }
    return { settled: false, reason: errorMessage(err) };
  }
  if (r.duration === null) return notMedia(ctx, f, 'no audio stream');
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
  return { settled: true };
}

async function notMedia(ctx: StorageContext, f: FileDoc, reason: string): Promise<ProbeAttempt> {
  await ctx.repo.files.updateOne({ file_sid: f.file_sid }, { $set: { media_probe: 'not_media' } });
  ctx.log.info({ file_sid: f.file_sid, reason }, 'media probe: not decodable media; content_duration stays null');
  return { settled: true };
}
