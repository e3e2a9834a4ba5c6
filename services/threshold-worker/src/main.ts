import { bootService } from '@patchbay/platform';
import { ThresholdWorkerConfig } from './config';
import { startThresholdWorker } from './service';

bootService({
  name: 'threshold-worker',
  config: ThresholdWorkerConfig,
  start: (deps, config) => startThresholdWorker(deps, { intervalMs: config.THRESHOLD_SWEEP_INTERVAL * 1000, busTimeoutMs: config.BUS_TIMEOUT_MS }),
});
