import type { JobContext, Logger } from '@patchbay/platform';
import type { StorageClient, UsageJob } from '@patchbay/contracts';

export interface UsageSnapshotDeps {
  storage: StorageClient;
  log: Logger;
  batch: number;
  stopping(): boolean;
}

/**
 * Container usage snapshots (`job.threshold-worker.usage`, one per window): has storage write every
 * container's counters as the snapshot of the job's UTC day, a page of containers per request. Each
 * write is the day's latest and rewriting it is harmless, so a job redelivered half-way simply starts
 * over. Returns how many snapshots were written.
 */
export async function runUsageSnapshots(deps: UsageSnapshotDeps, job: UsageJob, ctx: JobContext): Promise<number> {
  let after: string | null = null;
  let written = 0;
  do {
    if (deps.stopping()) break;
    const page = await deps.storage.usageSnapshot({ date: job.date, after, limit: deps.batch });
    ctx.working();
    written += page.written;
    after = page.next;
  } while (after);
  deps.log.debug({ date: job.date, containers: written }, 'usage snapshots written');
  return written;
}
