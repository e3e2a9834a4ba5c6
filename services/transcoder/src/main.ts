// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import { bootService } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { TranscoderConfig, transcoderSettings } from './config';
import { startTranscoderService } from './service';

bootService({
  name: 'transcoder',
  config: TranscoderConfig,
  blobs: true,
  openBlobs: openServiceBlobStore,
  start: (deps, config) => startTranscoderService(deps, transcoderSettings(config)),
});
