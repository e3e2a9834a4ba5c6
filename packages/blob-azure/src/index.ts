export { AzureBlobStore } from './azure-blob-store';
export type { AzureBlobStoreOptions, AzureCredentials } from './azure-options';
