import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { Queues, Subjects } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';
import { LimiterFullError, type Limiter } from './limiter';

export type RunKind = 'probe' | 'download' | 'upload';

/**
 * What an operator watches on a transcoder: runs and failures by kind, how long they take, ffmpeg
 * processes busy and waiting here, and the depth of the shared upload-job queue (the autoscaling
 * signal).
 */
export function transcoderMetrics(registry: Registry, bus: Bus, limiters: { upload: Limiter; download: Limiter }) {
  const runs = new Counter({
    name: 'transcoder_runs_total',
    help: 'ffmpeg/ffprobe runs by kind and result',
    labelNames: ['kind', 'result'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'transcoder_run_seconds',
    help: 'Duration of runs by kind',
    labelNames: ['kind'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  new Gauge({
    name: 'transcoder_active',
    help: 'ffmpeg processes running in this replica, by kind of work (each kind has its own slots)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      for (const [kind, limiter] of Object.entries(limiters)) this.set({ kind }, limiter.active);
    },
  });
  new Gauge({
    name: 'transcoder_waiting',
    help: 'Runs waiting for a free ffmpeg slot in this replica, by kind of work',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      for (const [kind, limiter] of Object.entries(limiters)) this.set({ kind }, limiter.queued);
    },
  });
  const coalesced = new Counter({
    name: 'transcoder_download_coalesced_total',
    help: 'Download-time requests that joined a run already going for the same copy (no ffmpeg of their own)',
    registers: [registry],
  });
  new Gauge({
    name: 'transcoder_queue_depth',
    help: 'Upload-time jobs not yet acknowledged (all replicas)',
    registers: [registry],
    async collect() {
      this.set(bus.pending ? await bus.pending(Subjects.transcoder.uploadJob, Queues.transcoder).catch(() => 0) : 0);
    },
  });
  /**
   * Times `work` and counts its outcome: ok, failed, aborted (a job interrupted by shutdown is no
   * failure) or refused (the download-time queue was full: no ffmpeg ran).
   */
  async function measured<T>(kind: RunKind, work: () => Promise<T>): Promise<T> {
    const end = seconds.startTimer({ kind });
    try {
      const result = await work();
      runs.inc({ kind, result: 'ok' });
      return result;
    } catch (err) {
      runs.inc({ kind, result: isAbort(err) ? 'aborted' : err instanceof LimiterFullError ? 'refused' : 'failed' });
      throw err;
    } finally {
      end();
    }
  }
  return { measured, coalesced: () => coalesced.inc() };
}

/** An AbortError by name: DOMException (an abort signal's reason) and Node's own AbortError alike. */
function isAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'name' in err && err.name === 'AbortError';
}
