import { bootService } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { StorageConfig, storageCredentialKeys } from './config';
import { startStorageService } from './service';

bootService({
  name: 'storage',
  config: StorageConfig,
  docs: true,
  blobs: true, openBlobs: openServiceBlobStore,
  start: (deps, config) => startStorageService(deps, {
    storageUrl: config.STORAGE_URL, uploadStaleMs: config.UPLOAD_STALE_MS, sweepIntervalMs: config.UPLOAD_SWEEP_INTERVAL_MS, busTimeoutMs: config.BUS_TIMEOUT_MS,
    reconcileOnStart: config.STORAGE_RECONCILE_ON_START ?? !config.MONGODB_URL,
    requeueTranscodingOnStart: config.STORAGE_REQUEUE_TRANSCODING_ON_START ?? !config.NATS_URL,
    credentialKeys: storageCredentialKeys(config),
  }),
});
