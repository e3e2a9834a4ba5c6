import { DuplicateKeyError } from '@patchbay/contracts';
import { backgroundWork, quietly, type Collection, type Logger, type Stoppable } from '@patchbay/platform';
import type { PendingProbeDoc } from '../domain/documents';
import { probeRetryDelayMs, type ProbeRetry } from '../domain/probe-retry';
import { errorMessage } from '../error-message';
import type { ProbeQueue, RunProbe } from './probe-queue';

/** Due probes taken per pass, run together. */
const BATCH = 8;

/**
 * Probes kept in the storage's own store (`pending_probes`), for the all-in-one: its in-process bus loses jobs with
 * the process, the store does not. One process drains it: every pass takes the due probes (oldest due first), runs
 * them, and removes each that settled or puts it off by its backoff. Single-process by design, as the all-in-one is:
 * two processes draining one collection would probe a file twice, which is harmless but wasted.
 */
export class StoreProbeQueue implements ProbeQueue {
  constructor(
    private readonly probes: Collection<PendingProbeDoc>,
    private readonly opts: { retry: ProbeRetry; log: Logger; pollMs?: number },
  ) {}

  async schedule(fileSid: string, notBefore: Date): Promise<void> {
    try {
      await this.probes.insertOne({ file_sid: fileSid, attempts: 0, due_at: notBefore });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  async forget(fileSid: string): Promise<void> {
    await this.probes.deleteOne({ file_sid: fileSid });
  }

  async start(run: RunProbe): Promise<Stoppable> {
    const pollMs = this.opts.pollMs ?? Math.min(1000, this.opts.retry.firstMs);
    let stopped = false;
    let pass: Promise<void> = Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (stopped) return;
      timer = setTimeout(() => {
        pass = this.drainDue(run)
          .catch((err: unknown) => this.opts.log.warn({ err: errorMessage(err) }, 'pending probes not read; next pass'))
          .finally(next);
      }, pollMs);
      timer.unref();
    };
    next();
    return {
      stop: async () => {
        stopped = true;
        clearTimeout(timer);
        await pass;
      },
    };
  }

  private async drainDue(run: RunProbe): Promise<void> {
    // The look is quiet (an idle instance makes no trace); a due probe is work, a trace of its own.
    const due = await quietly(() =>
      this.probes.find({ due_at: { $lte: new Date() } }, { sort: { due_at: 1 }, limit: BATCH }),
    );
    await Promise.all(
      due.map((p) =>
        backgroundWork('storage queued probe', { 'patchbay.file_sid': p.file_sid }, () => this.runOne(run, p)),
      ),
    );
  }

  private async runOne(run: RunProbe, p: PendingProbeDoc): Promise<void> {
    const r = await run(p.file_sid, p.attempts).catch(
      (err: unknown) => ({ settled: false, reason: errorMessage(err) }) as const,
    );
    if (r.settled) {
      await this.probes.deleteOne({ file_sid: p.file_sid });
      return;
    }
    const failures = p.attempts + 1;
    await this.probes.updateOne(
      { file_sid: p.file_sid },
      {
        $set: {
          attempts: failures,
          due_at: new Date(Date.now() + probeRetryDelayMs(failures, this.opts.retry)),
          last_error: r.reason,
        },
      },
    );
  }
}
