/**
 * @patchbay/blob-azure: the blob store on Azure Blob Storage (block blobs).
 *
 * An `azure_blob` container: `new AzureBlobStore(external_attributes)`; on create and update,
 * `probeBlobStore(store)` from @patchbay/platform (write, read back, delete a probe object).
 * `endpoint` may be left out when the credentials name the account (`account_name`).
 *
 * Failures: NotFoundError (missing object), RangeNotSatisfiableError, BadRequestError (bad key,
 * before any request), and BlobStoreUnavailableError with a `reason` for everything else; options
 * that cannot work throw BlobStoreUnavailableError('invalid_config') from the constructor.
 */
export { AzureBlobStore } from './azure-blob-store';
export type { AzureBlobStoreOptions, AzureCredentials } from './azure-options';
