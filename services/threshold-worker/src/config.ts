import { Type } from '@sinclair/typebox';

/** The threshold-worker's own environment keys (with CommonConfig). */
export const ThresholdWorkerConfig = {
  /** Seconds between sweeps: delete_lru containers over their threshold, and lifecycle expiry. */
  THRESHOLD_SWEEP_INTERVAL: Type.Integer({ minimum: 1, maximum: 86400, default: 300 }),
};
