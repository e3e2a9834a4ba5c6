import { bootService } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { GatewayConfig, gatewaySettings } from './config';
import { startGateway } from './start';

bootService({
  name: 'gateway',
  config: GatewayConfig,
  blobs: true,
  openBlobs: openServiceBlobStore,
  start: (deps, config) => startGateway(deps, gatewaySettings(config), config.PORT),
});
