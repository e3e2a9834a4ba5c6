export { startThresholdWorker } from './service';
export type { ThresholdWorkerSettings } from './service';
export { ThresholdWorkerConfig, thresholdWorkerSettings } from './config';
