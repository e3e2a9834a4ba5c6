// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { StorageConfig, storageSettings } from './config';
import { startStorageService } from './service';

bootService({
  name: 'storage',
  config: StorageConfig,
  docs: true,
  blobs: true,
  openBlobs: openServiceBlobStore,
  start: (deps, config) => startStorageService(deps, storageSettings(config)),
});
