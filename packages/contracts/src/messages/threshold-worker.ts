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

export const ThresholdWorkerJobs = {
  [Subjects.thresholdWorker.sweepJob]: { payload: SweepJobSchema },
  [Subjects.thresholdWorker.expireJob]: { payload: ExpireJobSchema },
} as const satisfies Record<(typeof Subjects.thresholdWorker)[keyof typeof Subjects.thresholdWorker], PayloadSpec>;
