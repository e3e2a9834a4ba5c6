export { startStorageService } from './service';
export { StorageConfig, storageSettings } from './config';
export type { StorageSettings } from './config';
export type { PrepareReply } from './handlers/uploads';
