import { Queues, StorageJobs, Subjects } from '@patchbay/contracts';
import { RetryLaterError, serveJobs, stopAll, type Bus, type Logger, type Stoppable } from '@patchbay/platform';
import { probeRetryDelayMs, type ProbeRetry } from '../domain/probe-retry';
import type { ProbeQueue, RunProbe } from './probe-queue';

/** Probes of one storage replica at once (each mostly waits for the transcoder). */
const CONCURRENCY = 4;

/**
 * Probes as JetStream jobs (`job.storage.probe`, work-queue retention; the in-process bus in unit tests): one job per
 * file (its message ID de-duplicates a second schedule), taken by any storage replica, handed back after its own
 * backoff (RetryLaterError) until the probe settles. Never dropped: max deliveries unlimited.
 */
export class BusProbeQueue implements ProbeQueue {
  constructor(
    private readonly bus: Bus,
    private readonly opts: { retry: ProbeRetry; timeoutMs: number; log: Logger },
  ) {}

  schedule(fileSid: string, notBefore: Date): Promise<void> {
    return this.bus.enqueue(
      Subjects.storage.probeJob,
      { file_sid: fileSid, not_before: notBefore.toISOString() },
      { msgId: `probe-${fileSid}` },
    );
  }

  async start(run: RunProbe): Promise<Stoppable> {
    const subs = await serveJobs(
      this.bus,
      Queues.storage,
      StorageJobs,
      {
        [Subjects.storage.probeJob]: {
          run: async (job, jc) => {
            const wait = Date.parse(job.not_before) - Date.now();
            if (wait > 0) throw new RetryLaterError(wait);
            // The first delivery normally waits out `not_before`: attempts before this one are the rest, roughly.
            const failures = Math.max(0, jc.deliveryCount - 2);
            const r = await run(job.file_sid, failures);
            if (!r.settled) throw new RetryLaterError(probeRetryDelayMs(failures + 1, this.opts.retry), r.reason);
          },
          options: {
            concurrency: CONCURRENCY,
            maxDeliver: Infinity,
            // Longer than a probe may take, so a slow answer is not redelivered to a second replica meanwhile.
            ackWaitMs: this.opts.timeoutMs + 15_000,
          },
        },
      },
      this.opts.log,
    );
    return { stop: () => stopAll(subs) };
  }
}
