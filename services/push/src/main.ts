// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { PushConfig, pushSettings } from './config';
import { startPushService } from './service';

bootService({
  name: 'push',
  docs: true,
  config: PushConfig,
  start: (deps, config) => startPushService(deps, pushSettings(config)),
});
