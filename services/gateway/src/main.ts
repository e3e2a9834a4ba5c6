import { bootService } from '@patchbay/platform';
import { GatewayConfig, gatewaySettings } from './config';
import { startGateway } from './start';

bootService({ name: 'gateway', config: GatewayConfig, blobs: true, start: (deps, config) => startGateway(deps, gatewaySettings(config), config.PORT) });
