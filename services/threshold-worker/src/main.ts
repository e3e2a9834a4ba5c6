// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { ThresholdWorkerConfig, thresholdWorkerSettings } from './config';
import { startThresholdWorker } from './service';

bootService({
  name: 'threshold-worker',
  config: ThresholdWorkerConfig,
  start: (deps, config) => startThresholdWorker(deps, thresholdWorkerSettings(config)),
});
