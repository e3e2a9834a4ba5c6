export { GcsBlobStore } from './gcs-blob-store';
export type { GcsBlobStoreOptions, GcsCredentials } from './gcs-options';
