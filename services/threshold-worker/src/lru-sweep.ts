import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { SweepCandidate, SweepContainerState, SweepJob } from '@patchbay/contracts';
import type { JobContext, Logger } from '@patchbay/platform';
import type { StorageClient } from '@patchbay/contracts';
import type { SweepResult, WorkerMetrics } from './metrics';

/** Payload of `job.threshold-worker.sweep`. */

export interface SweepDeps {
  storage: StorageClient;
  log: Logger;
  metrics: WorkerMetrics;
  /** Candidates asked for at once (NeDB sorts or walks per request: bench/threshold-sweep.ts). */
  batch: number;
  /** How long the container's lease lasts without a renewal (every deletion renews it). */
  leaseMs: number;
  /** True once the service is stopping: the sweep stops between deletions; the next tick continues it. */
  stopping(): boolean;
}

/** Batches in a row in which nothing could be deleted before the sweep gives up until the next tick. */
const MAX_IDLE_BATCHES = 3;

const counts = (c: SweepContainerState) => ({ files: c.threshold_total_files, bytes: c.threshold_total_bytes });

/**
 * One delete_lru sweep of one container (a durable job; at-least-once). Claims the container's lease
 * in storage — so a job of a later window, or a redelivery, finds it busy while this one runs — then
 * deletes its least recently used files one at a time, oldest `date_last_accessed` first (file_sid
 * breaks ties), each deletion re-checked by storage and answered with the counts after it, until
 * both counts are at or below their targets. Storage stops it there: never below. A sweep cut short
 * (crash, shutdown) leaves the container marked unfinished; the next tick's job continues from the
 * current state once the lease is free.
 */
export async function runLruSweep(deps: SweepDeps, job: SweepJob, ctx: JobContext): Promise<SweepResult> {
  const containerSid = job.container_sid;
  const owner = `${os.hostname()}:${process.pid}:${randomUUID()}`;
  const log = deps.log.child({ container_sid: containerSid, window: job.window, delivery: ctx.deliveryCount });
  const ask = () =>
    deps.storage.sweepCandidates({ container_sid: containerSid, owner, lease_ms: deps.leaseMs, limit: deps.batch });
  const first = await ask();
  if (!first.claimed || !first.container) return first.container?.over_target ? 'busy' : 'idle';
  const started = performance.now();
  const before = counts(first.container);
  let state = first.container;
  let files: SweepCandidate[] = first.files;
  let deleted = 0;
  let bytes = 0;
  let holding = true;
  let idle = 0;
  try {
    while (holding && state.over_target && !deps.stopping() && idle < MAX_IDLE_BATCHES) {
      if (files.length === 0) {
        log.warn({ counts: counts(state) }, 'container is over target but has no file the sweep may delete');
        break;
      }
      let progressed = false;
      for (const f of files) {
        ctx.working();
        const r = await deps.storage.sweepDelete({
          file_sid: f.file_sid,
          reason: 'lru',
          container_sid: containerSid,
          owner,
          date_last_accessed: f.date_last_accessed,
          lease_ms: deps.leaseMs,
        });
        if (r.container) state = r.container;
        holding = r.holds_lease;
        if (r.deleted && r.file) {
          progressed = true;
          deleted += 1;
          bytes += r.file.file_bytes;
          deps.metrics.deleted(containerSid, 'lru', r.file.file_bytes);
          log.info(
            {
              file_sid: f.file_sid,
              file_bytes: r.file.file_bytes,
              date_last_accessed: f.date_last_accessed,
              reason: 'lru',
              now: counts(state),
            },
            'deleted least recently used file',
          );
        }
        if (!holding || !state.over_target || deps.stopping()) break;
      }
      idle = progressed ? 0 : idle + 1;
      if (!holding || !state.over_target || deps.stopping()) break;
      ctx.working();
      const next = await ask();
      if (!next.claimed || !next.container) {
        holding = false;
        break;
      }
      state = next.container;
      files = next.files;
    }
  } finally {
    // Gives the lease back at once when the sweep stops early (storage already did when it finished).
    if (holding)
      await deps.storage
        .sweepRelease({ container_sid: containerSid, owner })
        .catch((err: unknown) => log.warn({ err }, 'could not release the sweep lease; it expires'));
  }
  const done = !state.over_target;
  log.info(
    {
      reason: 'lru',
      deleted_files: deleted,
      deleted_bytes: bytes,
      before,
      after: counts(state),
      ms: Math.round(performance.now() - started),
      targets: { files: state.threshold_files_target, bytes: state.threshold_bytes_target },
      finished: done,
    },
    done
      ? 'delete_lru sweep brought the container to its targets'
      : 'delete_lru sweep stopped early; the next tick continues it',
  );
  return done ? 'done' : 'partial';
}
