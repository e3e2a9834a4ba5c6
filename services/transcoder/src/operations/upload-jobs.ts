import { randomUUID } from 'node:crypto';
import {
  hasErrorCode,
  Subjects,
  transcodedBlobKey,
  UnprocessableError,
  type TranscodingDoneEvent,
  type TranscodingFailedEvent,
  type TranscodingProgressEvent,
  type UploadJob,
} from '@patchbay/contracts';
import type { JobContext } from '@patchbay/platform';
import { convert, type JobDeps } from '../convert';
import { FORMATS } from '../ffmpeg/formats';

/**
 * Upload-time transcoding (durable job, at-least-once; redone after a crash, a stop, or a restart
 * of the all-in-one process). Each attempt writes its own new blob and reports by event
 * (`evt.file.transcoding.progress|done|failed`, messages/transcoder.ts): the flow runs one way,
 * storage enqueues and the transcoder never asks it anything. Storage swaps a result in only if
 * the file still has the source the job read, and removes a result it does not use. So a redo is
 * idempotent: two attempts of one job (a redelivery racing a slow first run, or a job re-enqueued
 * at start-up that the queue still held) never write the same blob, the first result wins and the
 * other is removed; a redo after the swap finds its source gone and reports a failure storage
 * ignores. The job is acknowledged once its report is in the stream. When this replica stops and
 * the job outlives the drain deadline, `ctx.signal` kills ffmpeg and the job rejects: the bus hands
 * it to another replica at once.
 */
export async function runUploadJob(deps: JobDeps, job: UploadJob, ctx: JobContext): Promise<void> {
  const outputKey = transcodedBlobKey(job.blob_key, job.target, job.bitrate, randomUUID().slice(0, 8));
  let last = 0;
  const report = (progress: number) => {
    ctx.working();
    if (Date.now() - last < 500) return;
    last = Date.now();
    const event: TranscodingProgressEvent = {
      file_sid: job.file_sid,
      source_blob_key: job.blob_key,
      progress: Math.max(0, Math.min(100, progress)),
    };
    void deps.bus.publish(Subjects.events.fileTranscodingProgress, event).catch(() => undefined);
  };
  let result;
  try {
    result = await convert(
      deps,
      {
        blob_key: job.blob_key,
        source_format: job.source_format,
        target: job.target,
        bitrate: job.bitrate,
        output_key: outputKey,
      },
      { describe: true, onProgress: report, signal: ctx.signal, subject: job.file_sid },
    );
  } catch (err) {
    if (err instanceof UnprocessableError || hasErrorCode(err, 'blob_not_found')) {
      // The source blob is gone: the file was deleted, or this is a redo of a job already done.
      if (err.code === 'blob_not_found')
        deps.log.info(
          { file_sid: job.file_sid, blob_key: job.blob_key },
          'upload transcoding skipped: the source data is gone (file deleted or already transcoded)',
        );
      else
        deps.log.warn(
          { file_sid: job.file_sid, reason: err.errors[0]?.message ?? err.message },
          'upload transcoding failed; the file keeps its original data',
        );
      const failed: TranscodingFailedEvent = {
        file_sid: job.file_sid,
        source_blob_key: job.blob_key,
        reason: err.errors[0]?.message ?? err.message,
      };
      await deps.bus.publish(Subjects.events.fileTranscodingFailed, failed);
      return;
    }
    if (ctx.signal.aborted)
      deps.log.info(
        { file_sid: job.file_sid, deliveryCount: ctx.deliveryCount },
        'upload transcoding interrupted: this replica is stopping; the job goes back to the queue',
      );
    throw err;
  }
  const done: TranscodingDoneEvent = {
    file_sid: job.file_sid,
    source_blob_key: job.blob_key,
    blob_key: outputKey,
    file_bytes: result.size,
    content_format: job.target,
    mime_type: FORMATS[job.target].mime,
    content_duration: result.probe?.duration ?? null,
    content_bitrate: result.probe?.bitrate ?? null,
  };
  try {
    await deps.bus.publish(Subjects.events.fileTranscodingDone, done);
  } catch (err) {
    // Not reported, so the job is done again: this attempt's blob would be nobody's.
    await deps.blobs.delete(outputKey).catch(() => undefined);
    throw err;
  }
  deps.log.info(
    { file_sid: job.file_sid, target: job.target, bytes: result.size },
    'upload transcoding done; reported to storage',
  );
}
