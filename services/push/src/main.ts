import { bootService } from '@patchbay/platform';
import { PushConfig, pushSettings } from './config';
import { startPushService } from './service';

bootService({
  name: 'push',
  docs: true,
  config: PushConfig,
  start: (deps, config) => startPushService(deps, pushSettings(config)),
});
