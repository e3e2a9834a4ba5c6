// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { RecordsConfig, recordsSettings } from './config';
import { startRecordsService } from './service';

bootService({
  name: 'records',
  docs: true,
  // Record exports write their files into the containers' blob stores.
  blobs: true,
  openBlobs: openServiceBlobStore,
  config: RecordsConfig,
  start: (deps, config) => startRecordsService(deps, recordsSettings(config)),
});
