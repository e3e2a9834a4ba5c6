import { Type, type Static } from '@sinclair/typebox';
import { Subjects } from '../subjects';
import type { PayloadSpec } from './message-spec';

/**
 * The threshold-worker's durable jobs, which it enqueues for itself (every replica, keyed by
 * window so one copy runs): a delete_lru sweep of one container, and the lifecycle expiry.
 */

/** The tick a job belongs to: whole intervals since the epoch (domain/windows.ts). */
const Window = Type.Integer({ minimum: 0 });

export const SweepJobSchema = Type.Object({
  container_sid: Type.String({ minLength: 1, maxLength: 64 }),
  window: Window,
});
export type SweepJob = Static<typeof SweepJobSchema>;
export const ExpireJobSchema = Type.Object({ window: Window });
export type ExpireJob = Static<typeof ExpireJobSchema>;
/** Every container's usage snapshot of the UTC day `date` (`YYYY-MM-DD`). */
export const UsageJobSchema = Type.Object({ date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }) });
export type UsageJob = Static<typeof UsageJobSchema>;

export const ThresholdWorkerJobs = {
  [Subjects.thresholdWorker.sweepJob]: { payload: SweepJobSchema },
  [Subjects.thresholdWorker.expireJob]: { payload: ExpireJobSchema },
  [Subjects.thresholdWorker.usageJob]: { payload: UsageJobSchema },
} as const satisfies Record<(typeof Subjects.thresholdWorker)[keyof typeof Subjects.thresholdWorker], PayloadSpec>;
