import { bootService } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { FileServerConfig } from './config';
import { startFileServer } from './start';

bootService({
  name: 'file-server',
  config: FileServerConfig,
  blobs: true, openBlobs: openServiceBlobStore,
  start: (deps, config) => startFileServer(deps, {
    port: config.STORAGE_PORT, cacheTtlMs: config.FILE_CACHE_MS, busTimeoutMs: config.BUS_TIMEOUT_MS, transcodeTimeoutMs: config.TRANSCODE_TIMEOUT_MS,
  }),
});
