import type { JobContext, Logger } from '@patchbay/platform';
import type { StorageClient } from '@patchbay/contracts';
import type { SweepResult, WorkerMetrics } from './metrics';

export interface ExpiryDeps {
  storage: StorageClient;
  log: Logger;
  metrics: WorkerMetrics;
  batch: number;
  stopping(): boolean;
}

/**
 * Lifecycle expiry (`job.threshold-worker.expire`, one per window): deletes every file whose
 * `expires_at` (upload time + lifecycle_ttl) has passed, oldest expiry first, through storage. Each
 * delete is conditional and idempotent in storage, so an overlapping job of another window deletes
 * nothing twice; a batch in which nothing could be deleted means such a job is on it, and this one
 * stops.
 */
export async function runExpiry(deps: ExpiryDeps, window: number, ctx: JobContext): Promise<SweepResult> {
  const log = deps.log.child({ window, delivery: ctx.deliveryCount });
  const started = performance.now();
  const perContainer = new Map<string, { files: number; bytes: number }>();
  for (;;) {
    if (deps.stopping()) break;
    const { files } = await deps.storage.sweepExpired(deps.batch);
    if (files.length === 0) break;
    let progressed = false;
    for (const f of files) {
      ctx.working();
      const r = await deps.storage.sweepDelete({ file_sid: f.file_sid, reason: 'lifecycle' });
      if (!r.deleted || !r.file) continue;
      progressed = true;
      deps.metrics.deleted(r.file.container_sid, 'lifecycle', r.file.file_bytes);
      const sum = perContainer.get(r.file.container_sid) ?? { files: 0, bytes: 0 };
      perContainer.set(r.file.container_sid, { files: sum.files + 1, bytes: sum.bytes + r.file.file_bytes });
      log.info(
        {
          container_sid: r.file.container_sid,
          file_sid: f.file_sid,
          file_bytes: r.file.file_bytes,
          expires_at: f.expires_at,
          reason: 'lifecycle',
        },
        'deleted expired file',
      );
      if (deps.stopping()) break;
    }
    if (!progressed) break;
  }
  if (perContainer.size === 0) return 'idle';
  const ms = Math.round(performance.now() - started);
  for (const [containerSid, sum] of perContainer)
    log.info(
      { container_sid: containerSid, reason: 'lifecycle', deleted_files: sum.files, deleted_bytes: sum.bytes, ms },
      'lifecycle expiry deleted files',
    );
  return deps.stopping() ? 'partial' : 'done';
}
