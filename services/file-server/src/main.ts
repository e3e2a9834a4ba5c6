// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { FileServerConfig, fileServerSettings } from './config';
import { startFileServer } from './start';

bootService({
  name: 'file-server',
  config: FileServerConfig,
  blobs: true,
  openBlobs: openServiceBlobStore,
  start: (deps, config) => startFileServer(deps, fileServerSettings(config)),
});
