import { bootService } from '@patchbay/platform';
import { EndpointConfig, endpointSettings } from './config';
import { startEndpointService } from './service';

bootService({
  name: 'endpoint',
  docs: true,
  config: EndpointConfig,
  start: (deps, config) => startEndpointService(deps, endpointSettings(config)),
});
