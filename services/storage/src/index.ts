export { startStorageService } from './service';
export { StorageConfig, storageSettings } from './config';
export type { StorageSettings } from './config';
