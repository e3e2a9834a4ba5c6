import { Queues, StorageClient, Subjects, ThresholdWorkerJobs } from '@patchbay/contracts';
import { serveJobs, stopAll, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import { workerMetrics } from './metrics';
import { runLruSweep, type SweepDeps } from './lru-sweep';
import { runExpiry } from './expiry';
import { scheduleSweeps } from './schedule';
import { startTicker } from './ticker';
import { runUsageSnapshots } from './usage-snapshots';

export interface ThresholdWorkerSettings {
  /** Milliseconds between ticks (THRESHOLD_SWEEP_INTERVAL seconds). */
  intervalMs: number;
  busTimeoutMs: number;
  /** Sweep jobs (containers) run at once by this replica; default 2. */
  concurrency?: number;
  /** Candidates per storage request; default 200. */
  batch?: number;
  /** Lease of a container while it is swept; default 30 s (at least 3 bus timeouts). */
  leaseMs?: number;
}

/** Time a job may go without `working()` before the bus hands it to another replica. */
const ACK_WAIT_MS = 60_000;

/**
 * The threshold-worker: stateless, any number of replicas. Each replica ticks every interval
 * (aligned to the clock, see ticker.ts), enqueues keyed jobs (schedule.ts), and works the shared
 * queues: delete_lru sweeps (lru-sweep.ts), lifecycle expiry (expiry.ts) and the containers' daily usage
 * snapshots (usage-snapshots.ts). Every deletion goes
 * through storage, which owns the files, their blobs, cached copies and counters.
 */
export async function startThresholdWorker(deps: ServiceDeps, settings: ThresholdWorkerSettings): Promise<Stoppable> {
  const log = deps.logger.child({ mod: 'threshold-worker' });
  const storage = new StorageClient(deps.bus, { timeoutMs: settings.busTimeoutMs });
  const metrics = workerMetrics(deps.metrics, deps.bus);
  let stopping = false;
  const sweepDeps: SweepDeps = {
    storage,
    log,
    metrics,
    batch: settings.batch ?? 200,
    leaseMs: settings.leaseMs ?? Math.max(30_000, 3 * settings.busTimeoutMs),
    stopping: () => stopping,
  };
  const jobOpts = { ackWaitMs: ACK_WAIT_MS, maxDeliver: 5 };
  const subs = await serveJobs(
    deps.bus,
    Queues.thresholdWorker,
    ThresholdWorkerJobs,
    {
      [Subjects.thresholdWorker.sweepJob]: {
        run: (job, ctx) => metrics.measured('lru', () => runLruSweep(sweepDeps, job, ctx)),
        options: { ...jobOpts, concurrency: settings.concurrency ?? 2 },
      },
      [Subjects.thresholdWorker.expireJob]: {
        run: (job, ctx) => metrics.measured('lifecycle', () => runExpiry(sweepDeps, job.window, ctx)),
        options: { ...jobOpts, concurrency: 1 },
      },
      [Subjects.thresholdWorker.usageJob]: {
        run: (job, ctx) => runUsageSnapshots(sweepDeps, job, ctx),
        options: { ...jobOpts, concurrency: 1 },
      },
    },
    log,
  );
  const ticker = startTicker(
    settings.intervalMs,
    async (window) => {
      try {
        await scheduleSweeps({ bus: deps.bus, storage, log, intervalMs: settings.intervalMs }, window);
        metrics.tick(true);
      } catch (err) {
        metrics.tick(false);
        throw err;
      }
    },
    log,
  );
  log.info({ interval_ms: settings.intervalMs }, 'threshold-worker ready');
  return {
    stop: async () => {
      stopping = true;
      await ticker.stop();
      await stopAll(subs);
    },
  };
}
