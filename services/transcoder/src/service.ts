import { setMaxListeners } from 'node:events';
import { Queues, Subjects, TranscoderJobs, TranscoderRequests } from '@patchbay/contracts';
import {
  DEFAULT_DRAIN_MS,
  serveJobs,
  serveRequests,
  stopAll,
  type ServiceDeps,
  type Stoppable,
} from '@patchbay/platform';
import { useBinaries } from './ffmpeg/binaries';
import type { BinarySettings } from './ffmpeg/candidates';
import { Toolkit } from './ffmpeg/toolkit';
import { parentDeathSignal } from './ffmpeg/child-guard';
import { Limiter } from './limiter';
import type { JobDeps } from './convert';
import { downloadCopies } from './download-copies';
import { LiveRuns } from './live/live-runs';
import type { TranscoderContext } from './context';
import { probeHandlers } from './handlers/probes';
import { transcodeHandlers } from './handlers/transcodes';
import { runUploadJob } from './operations/upload-jobs';
import { transcoderMetrics } from './metrics';
import { startScratch } from './scratch/scratch-keeper';

export interface TranscoderSettings {
  /** Shared scratch root: each worker works in a directory of its own below it. */
  scratchDir: string;
  /** ffmpeg processes at once for upload-time jobs in this replica (their own slots). */
  concurrency: number;
  /**
   * ffmpeg processes at once for download-time copies (slots of their own, at a lower CPU
   * priority, so a flood of `?f=` requests never delays an upload-time job). Default 1.
   */
  downloadConcurrency?: number;
  /** Download-time runs that may wait for a slot; one more is refused with 503 and Retry-After. Default 16. */
  downloadQueue?: number;
  /** Longest a single ffmpeg run may take. */
  timeoutMs: number;
  /**
   * At stop, how long upload-time jobs in flight may go on before ffmpeg is killed and they are
   * handed back to the queue (TRANSCODER_DRAIN_MS; unset: the bus's default, 10000).
   */
  drainMs?: number;
  /** Where ffmpeg and ffprobe are looked for (FFMPEG_PATH, FFPROBE_PATH, PATH, the npm fallback). */
  binaries: BinarySettings;
}

/**
 * The transcoder: ffmpeg as child processes (which die with it), stateless, as many replicas as
 * wanted. Probing (for `content_duration`) and download-time copies are requests; upload-time
 * transcoding is a durable job. Before taking work it removes what dead workers left in the
 * scratch root (files and processes).
 *
 * It starts without a working ffmpeg too (toolkit.ts): requests it cannot serve are answered 503
 * naming the missing binary or encoder — a probe that announces its `target` (storage, before it
 * accepts an upload to transcode) included — and upload-time jobs stay queued for a replica that can.
 */
export async function startTranscoderService(deps: ServiceDeps, settings: TranscoderSettings): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'transcoder' });
  const toolkit = await Toolkit.resolve(settings.binaries);
  useBinaries({ ffmpeg: toolkit.ffmpeg.chosen?.path ?? null, ffprobe: toolkit.ffprobe.chosen?.path ?? null });
  if (toolkit.complete()) log.info({ ...toolkit.describe(), pdeathsig: parentDeathSignal() }, 'ffmpeg found');
  else
    log.warn(
      {
        ...toolkit.describe(),
        ffmpeg_passed_over: toolkit.ffmpeg.passedOver,
        ffprobe_passed_over: toolkit.ffprobe.passedOver,
      },
      "transcoding is limited or unavailable: install Debian's ffmpeg, or set FFMPEG_PATH and FFPROBE_PATH",
    );
  const scratch = await startScratch(settings.scratchDir, log, settings.timeoutMs);
  // Upload-time jobs and download-time copies each have their own slots: no number of anonymous
  // downloads can keep a partner's upload waiting (docs/security.md "Transcoding capacity").
  const uploads = new Limiter(settings.concurrency);
  const downloads = new Limiter(settings.downloadConcurrency ?? 1, settings.downloadQueue ?? 16);
  const { measured, coalesced } = transcoderMetrics(deps.metrics, deps.bus, { upload: uploads, download: downloads });
  const jobDeps: JobDeps = {
    bus: deps.bus,
    blobs: deps.blobs,
    log,
    limiter: uploads,
    scratchDir: scratch.dir,
    timeoutMs: settings.timeoutMs,
  };
  // Aborted when a stop has waited the drain deadline: download-time transcodes still running are
  // given up and answered 503, which the file-server takes as "ask another replica".
  const stopping = new AbortController();
  // Every download-time run waiting or running listens on it: more than ten at once is normal.
  setMaxListeners(0, stopping.signal);
  const copy = downloadCopies({
    // Niced: when a core is short, upload-time jobs get it first.
    jobs: { ...jobDeps, limiter: downloads, nice: 10 },
    bus: deps.bus,
    log,
    stopping: stopping.signal,
    measured,
    onCoalesced: coalesced,
  });
  const live = new LiveRuns({
    jobs: { ...jobDeps, limiter: downloads, nice: 10 },
    bus: deps.bus,
    stopping: stopping.signal,
    measured,
    onCoalesced: coalesced,
    whole: ({ listener: _listener, ...req }) => copy(req),
  });
  await live.listen();
  const ctx: TranscoderContext = { toolkit, jobs: jobDeps, copy, live, measured, stopping: stopping.signal };
  const subs = await serveRequests(
    deps.bus,
    Queues.transcoder,
    TranscoderRequests,
    { ...transcodeHandlers(ctx), ...probeHandlers(ctx) },
    log,
  );
  // A replica that cannot transcode leaves upload-time jobs in their queue for one that can (the
  // file keeps its original data meanwhile; storage re-queues waiting jobs when it starts).
  const jobs = await serveJobs(
    deps.bus,
    Queues.transcoder,
    TranscoderJobs,
    toolkit.canTranscode()
      ? {
          [Subjects.transcoder.uploadJob]: {
            run: (job, jobCtx) => measured('upload', () => runUploadJob(jobDeps, job, jobCtx)),
            options: {
              concurrency: settings.concurrency,
              ackWaitMs: 30000,
              maxDeliver: 5,
              drainMs: settings.drainMs,
            },
          },
        }
      : {},
    log,
  );
  return {
    // Side by side, so the jobs' drain deadline runs from the signal, not from the end of a long
    // download-time transcode still being answered.
    stop: async () => {
      const drain = setTimeout(
        () => stopping.abort(new DOMException('the transcoder is stopping', 'AbortError')),
        settings.drainMs ?? DEFAULT_DRAIN_MS,
      );
      try {
        const [requests, work] = await Promise.allSettled([stopAll(subs), stopAll(jobs)]);
        for (const r of [requests, work]) if (r.status === 'rejected') throw r.reason;
        await live.stop();
      } finally {
        clearTimeout(drain);
        await scratch.stop();
      }
    },
  };
}
