import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { Queues, Subjects, type SweepReason } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';

/**
 * How a sweep job ended: target reached, stopped early (shutdown, lost lease, no progress), another replica holds the
 * container, nothing to do.
 */
export type SweepResult = 'done' | 'partial' | 'busy' | 'idle';

export interface WorkerMetrics {
  /** Counts one deleted file of `bytes` in `containerSid`. */
  deleted(containerSid: string, reason: SweepReason, bytes: number): void;
  /** Times `work` as a sweep of `kind` and counts how it ended ('failed' when it throws). */
  measured(kind: SweepReason, work: () => Promise<SweepResult>): Promise<void>;
  tick(ok: boolean): void;
}

/**
 * What an operator watches on a threshold-worker replica: files and bytes it deleted per container
 * and reason, how long sweeps take, sweeps by outcome, ticks, and the depth of the shared sweep
 * queue. The per-container label grows with the number of delete_lru containers that were ever swept
 * (and containers with expiring files): bounded by what this replica touched since it started.
 */
export function workerMetrics(registry: Registry, bus: Bus): WorkerMetrics {
  const files = new Counter({
    name: 'threshold_worker_deleted_files_total',
    help: 'Files deleted, by container and reason (lru, lifecycle)',
    labelNames: ['container_sid', 'reason'],
    registers: [registry],
  });
  const bytes = new Counter({
    name: 'threshold_worker_deleted_bytes_total',
    help: 'Bytes deleted, by container and reason',
    labelNames: ['container_sid', 'reason'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'threshold_worker_sweep_seconds',
    help: 'Duration of sweeps that deleted or tried to (done, partial, failed), by kind',
    labelNames: ['kind'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800],
    registers: [registry],
  });
  const sweeps = new Counter({
    name: 'threshold_worker_sweeps_total',
    help: 'Sweep jobs by kind and result (done, partial, busy, idle, failed)',
    labelNames: ['kind', 'result'],
    registers: [registry],
  });
  const ticks = new Counter({
    name: 'threshold_worker_ticks_total',
    help: 'Ticks (containers listed, jobs enqueued) by result',
    labelNames: ['result'],
    registers: [registry],
  });
  new Gauge({
    name: 'threshold_worker_queue_depth',
    help: 'Sweep jobs not yet acknowledged (all replicas)',
    registers: [registry],
    async collect() {
      this.set(
        bus.pending ? await bus.pending(Subjects.thresholdWorker.sweepJob, Queues.thresholdWorker).catch(() => 0) : 0,
      );
    },
  });
  return {
    deleted(containerSid, reason, n) {
      files.inc({ container_sid: containerSid, reason });
      bytes.inc({ container_sid: containerSid, reason }, n);
    },
    async measured(kind, work) {
      const started = performance.now();
      let result: SweepResult | 'failed' = 'failed';
      try {
        result = await work();
      } finally {
        sweeps.inc({ kind, result });
        // Only sweeps that worked: a busy or idle job says nothing about how long sweeping takes.
        if (result !== 'busy' && result !== 'idle') seconds.observe({ kind }, (performance.now() - started) / 1000);
      }
    },
    tick(ok) {
      ticks.inc({ result: ok ? 'ok' : 'failed' });
    },
  };
}
