// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
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
