import { bootService } from '@patchbay/platform';
import { GatewayConfig } from './config';
import { startGateway } from './start';

bootService({
  name: 'gateway',
  config: GatewayConfig,
  blobs: true,
  start: (deps, config) => startGateway(deps, {
    baseUrl: config.BASE_URL ?? `http://127.0.0.1:${config.PORT}/core/v2`,
    jsonBodyLimit: config.JSON_BODY_LIMIT,
    authCacheMs: config.AUTH_CACHE_MS,
    busTimeoutMs: config.BUS_TIMEOUT_MS,
  }, config.PORT),
});
