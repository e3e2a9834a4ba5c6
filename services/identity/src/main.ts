// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { IdentityConfig, identitySettings } from './config';
import { startIdentityService } from './service';

bootService({
  name: 'identity',
  config: IdentityConfig,
  docs: true,
  start: (deps, config) => startIdentityService(deps, identitySettings(config)),
});
