// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { EndpointConfig, endpointSettings } from './config';
import { startEndpointService } from './service';

bootService({
  name: 'endpoint',
  docs: true,
  config: EndpointConfig,
  start: (deps, config) => startEndpointService(deps, endpointSettings(config)),
});
