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
