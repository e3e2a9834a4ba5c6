import path from 'node:path';
import { NotFoundError, Subjects, UnprocessableError, unwrapReply } from '@patchbay/contracts';
import type { BlobStore, Bus, JobContext, Logger } from '@patchbay/platform';
import { FORMATS } from './ffmpeg/formats';
import { probe, type ProbeResult } from './ffmpeg/probe';
import { FfmpegError } from './ffmpeg/run';
import { transcode } from './ffmpeg/transcode';
import type { Limiter } from './limiter';
import { fetchBlob, storeBlob, withScratch } from './workspace';

export interface JobDeps { bus: Bus; blobs: BlobStore; log: Logger; limiter: Limiter; scratchDir: string; timeoutMs: number }

export interface ConvertRequest { blob_key: string; source_format: string | null; target: string; bitrate: number | null; output_key: string }

/**
 * Transcodes `blob_key` into a new blob at `output_key` (atomic: a reader never sees half of it).
 * `describe` probes the source first (duration, for progress; a clear error when it has no audio)
 * and the result after (to describe the stored file) — upload jobs want both; a download only
 * wants the bytes, and ffmpeg itself refuses what it cannot decode. Aborting `signal` gives up a
 * place waiting for a free slot, or kills ffmpeg/ffprobe, and rejects with the abort reason (never
 * an UnprocessableError: the source is not at fault); the scratch files go either way.
 * `cacheCopy`: the output is a download-time copy that can be made again, so it is stored without
 * waiting for the disk (a fsync of a large wav costs more than the rest of the request).
 */
export async function convert(
  deps: JobDeps, req: ConvertRequest,
  opts: { describe?: boolean; cacheCopy?: boolean; onProgress?: (p: number) => void; signal?: AbortSignal } = {},
): Promise<{ size: number; probe: ProbeResult | null }> {
  const { signal } = opts;
  return deps.limiter.run(() => withScratch(deps.scratchDir, async (dir) => {
    const input = path.join(dir, 'input');
    const output = path.join(dir, `output.${FORMATS[req.target]?.extension ?? 'bin'}`);
    await fetchBlob(deps.blobs, req.blob_key, input, signal);
    try {
      const source = opts.describe ? await probe(input, req.source_format, signal) : null;
      if (source && source.duration === null) throw UnprocessableError.field('data', 'the source has no audio to transcode');
      await transcode({ input, sourceFormat: req.source_format, output, target: req.target, bitrate: req.bitrate, duration: source?.duration ?? null, onProgress: opts.onProgress, timeoutMs: deps.timeoutMs, signal });
    } catch (err) {
      if (err instanceof FfmpegError) throw UnprocessableError.field('data', `not decodable audio: ${err.message}`);
      throw err;
    }
    const result = opts.describe ? await probe(output, req.target, signal) : null;
    const size = await storeBlob(deps.blobs, req.output_key, output, { durable: !opts.cacheCopy });
    return { size, probe: result };
  }), signal);
}

export interface UploadJob { file_sid: string; partner_sid: string; blob_key: string; source_format: string | null; target: string; bitrate: number | null }

/**
 * Upload-time transcoding (durable job, at-least-once): writes the new data under a key of its own
 * (the same on a redelivery, so a redo overwrites), reports progress, then hands the result to
 * storage, which swaps it in. A file deleted meanwhile: the new blob is removed. When this replica
 * stops and the job outlives the drain deadline, `ctx.signal` kills ffmpeg and the job rejects:
 * the bus hands it to another replica at once.
 */
export async function runUploadJob(deps: JobDeps, job: UploadJob, ctx: JobContext): Promise<void> {
  const outputKey = `${job.blob_key}.${job.target}${job.bitrate ? `-${job.bitrate}` : ''}`;
  let last = 0;
  const report = (progress: number) => {
    ctx.working();
    if (Date.now() - last < 500) return;
    last = Date.now();
    void deps.bus.request(Subjects.storage.transcodingProgress, { file_sid: job.file_sid, progress }, { timeoutMs: 5000 }).catch(() => undefined);
  };
  let result;
  try {
    result = await convert(deps, { blob_key: job.blob_key, source_format: job.source_format, target: job.target, bitrate: job.bitrate, output_key: outputKey }, { describe: true, onProgress: report, signal: ctx.signal });
  } catch (err) {
    if (err instanceof UnprocessableError || err instanceof NotFoundError) {
      deps.log.warn({ file_sid: job.file_sid, err: err.message }, 'upload transcoding failed; the file keeps its original data');
      await deps.bus.request(Subjects.storage.transcodingDone, { file_sid: job.file_sid, source_blob_key: job.blob_key, failed: err.message }, { timeoutMs: 10000 }).catch(() => undefined);
      return;
    }
    if (ctx.signal.aborted) deps.log.info({ file_sid: job.file_sid, deliveryCount: ctx.deliveryCount }, 'upload transcoding interrupted: this replica is stopping; the job goes back to the queue');
    throw err;
  }
  const spec = FORMATS[job.target];
  try {
    unwrapReply(await deps.bus.request(Subjects.storage.transcodingDone, {
      file_sid: job.file_sid, source_blob_key: job.blob_key, blob_key: outputKey, file_bytes: result.size, content_format: job.target, mime_type: spec.mime,
      extension: spec.extension, content_duration: result.probe?.duration ?? null, content_bitrate: result.probe?.bitrate ?? null,
    }, { timeoutMs: 10000 }));
  } catch (err) {
    if (err instanceof NotFoundError) { await deps.blobs.delete(outputKey); return; }
    throw err;
  }
  deps.log.info({ file_sid: job.file_sid, target: job.target, bytes: result.size }, 'upload transcoding done');
}
