import { Subjects, type ExpireJob, type SweepContainersReply, type SweepJob, type UsageJob } from '@patchbay/contracts';
import type { Bus, Logger } from '@patchbay/platform';
import { expireJobId, sweepJobId, usageDateOf, usageJobId } from './domain/windows';
import type { StorageClient } from '@patchbay/contracts';

/** Containers asked for per page. */
const PAGE = 200;

/**
 * One tick of one replica: asks storage which delete_lru containers need a sweep and enqueues one
 * keyed job per container, one lifecycle expiry job and one usage snapshot job, for this window. Every replica does the
 * same; the bus keeps the first copy of each message ID, and the work queue hands each job to one
 * replica. Returns how many containers were due.
 */
export async function scheduleSweeps(
  deps: { bus: Bus; storage: StorageClient; log: Logger; intervalMs: number },
  window: number,
): Promise<number> {
  let after: string | null = null;
  let due = 0;
  do {
    const page: SweepContainersReply = await deps.storage.sweepContainers(after, PAGE);
    for (const sid of page.container_sids) {
      await deps.bus.enqueue(Subjects.thresholdWorker.sweepJob, { container_sid: sid, window } satisfies SweepJob, {
        msgId: sweepJobId(sid, window),
      });
    }
    due += page.container_sids.length;
    after = page.next;
  } while (after);
  await deps.bus.enqueue(Subjects.thresholdWorker.expireJob, { window } satisfies ExpireJob, {
    msgId: expireJobId(window),
  });
  const date = usageDateOf(window, deps.intervalMs);
  await deps.bus.enqueue(Subjects.thresholdWorker.usageJob, { date } satisfies UsageJob, { msgId: usageJobId(window) });
  if (due > 0) deps.log.debug({ window, containers: due }, 'delete_lru sweeps enqueued');
  return due;
}
