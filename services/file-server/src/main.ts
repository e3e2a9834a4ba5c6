import { bootService } from '@patchbay/platform';
import { FileServerConfig, fileServerSettings } from './config';
import { startFileServer } from './start';

bootService({ name: 'file-server', config: FileServerConfig, blobs: true, start: (deps, config) => startFileServer(deps, fileServerSettings(config)) });
