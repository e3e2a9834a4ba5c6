import { bootService } from '@patchbay/platform';
import { FileServerConfig } from './config';
import { startFileServer } from './start';

bootService({
  name: 'file-server',
  config: FileServerConfig,
  blobs: true,
  start: (deps, config) => startFileServer(deps, {
    port: config.STORAGE_PORT, cacheTtlMs: config.FILE_CACHE_MS, busTimeoutMs: config.BUS_TIMEOUT_MS, transcodeTimeoutMs: config.TRANSCODE_TIMEOUT_MS,
    accelRedirect: config.FILE_SERVER_ACCEL_REDIRECT,
  }),
});
