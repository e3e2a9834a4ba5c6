import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig } from '@patchbay/platform';
import type { ThresholdWorkerSettings } from './service';

/** The threshold-worker's own environment keys (with CommonConfig). */
export const ThresholdWorkerConfig = {
  /** Seconds between sweeps: delete_lru containers over their threshold, and lifecycle expiry. */
  THRESHOLD_SWEEP_INTERVAL: Type.Integer({ minimum: 1, maximum: 86400, default: 300 }),
};

export const thresholdWorkerSchema = Type.Object({ ...CommonConfig, ...ThresholdWorkerConfig });
export type ThresholdWorkerConfigValues = Static<typeof thresholdWorkerSchema>;

/** The one mapping from configuration to settings, used by main.ts and the all-in-one process alike. */
export function thresholdWorkerSettings(c: ThresholdWorkerConfigValues): ThresholdWorkerSettings {
  return { intervalMs: c.THRESHOLD_SWEEP_INTERVAL * 1000, busTimeoutMs: c.BUS_TIMEOUT_MS };
}
