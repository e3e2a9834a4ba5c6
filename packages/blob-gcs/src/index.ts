/**
 * @patchbay/blob-gcs: the blob store on Google Cloud Storage.
 *
 * A `gcp_storage` container: `new GcsBlobStore(external_attributes)`; on create and update,
 * `probeBlobStore(store)` from @patchbay/platform (write, read back, delete a probe object).
 * Google's own endpoint needs `credentials.service_account_json`; only a custom `endpoint` may be
 * used without credentials.
 *
 * Failures: NotFoundError (missing object), RangeNotSatisfiableError, BadRequestError (bad key,
 * before any request), and BlobStoreUnavailableError with a `reason` for everything else; options
 * that cannot work throw BlobStoreUnavailableError('invalid_config') from the constructor.
 */
export { GcsBlobStore } from './gcs-blob-store';
export type { GcsBlobStoreOptions, GcsCredentials } from './gcs-options';
