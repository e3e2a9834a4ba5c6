export { startStorageService } from './service';
export { StorageConfig, storageSettings, storageCredentialKeys } from './config';
export type { StorageSettings } from './config';
export type { PrepareReply } from './handlers/uploads';
