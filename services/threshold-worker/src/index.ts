export { startThresholdWorker } from './service';
export type { ThresholdWorkerSettings } from './service';
export { ThresholdWorkerConfig } from './config';
