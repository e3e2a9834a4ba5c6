import { bootService } from '@patchbay/platform';
import { StorageConfig, storageSettings } from './config';
import { startStorageService } from './service';

bootService({ name: 'storage', config: StorageConfig, docs: true, blobs: true, start: (deps, config) => startStorageService(deps, storageSettings(config)) });
