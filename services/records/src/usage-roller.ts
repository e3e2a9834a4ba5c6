import { backgroundWork, quietly, type Logger } from '@patchbay/platform';
import { ClaimLoop } from './background/claim-loop';
import type { RecordsRepo } from './repo';
import { backfillUsage, recomputeDay, usageBackfilled, type UsageDirtyDoc } from './usage/usage-rollups';

/**
 * Keeps the usage rollups (usage-rollups.ts): at start, marks once the days of the records stored before
 * them; then, every second and in day order, recomputes each dirty day. Replicas may recompute the same day
 * at once: each writes the same hours, and only the mark it read is cleared.
 */
export class UsageRoller {
  private readonly loop: ClaimLoop<UsageDirtyDoc>;
  private backfill: Promise<void> | undefined;

  constructor(
    private readonly repo: RecordsRepo,
    private readonly log: Logger,
  ) {
    this.loop = new ClaimLoop<UsageDirtyDoc>({
      name: 'records usage rollup',
      pollMs: 1000,
      concurrency: 1,
      claim: () => repo.usage.dirty.findOne({}, { sort: { day: 1 } }),
      work: (mark) => recomputeDay(repo.usage, mark.kind === 'call_drs' ? repo.callDrs : repo.messageDrs, mark),
      attributes: (mark) => ({ kind: mark.kind, day: mark.day }),
      log,
    });
  }

  start(): void {
    this.backfill = (async () => {
      for (const kind of ['call_drs', 'message_drs'] as const) {
        // Looked for quietly (every start but the first finds it done); a backfill that runs is a trace of its own.
        if (await quietly(() => usageBackfilled(this.repo.usage, kind))) continue;
        const records = kind === 'call_drs' ? this.repo.callDrs : this.repo.messageDrs;
        await backgroundWork('records usage backfill', { kind }, () => backfillUsage(this.repo.usage, kind, records));
      }
    })().catch((err: unknown) =>
      this.log.error({ err }, 'usage rollup backfill failed; it runs again at the next start'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.backfill;
  }
}
