/**
 * @patchbay/blob-s3: the blob store on Amazon S3 or any S3-compatible server.
 *
 * - An `aws_s3` container: `new S3BlobStore(external_attributes)`; on create and update,
 *   `probeBlobStore(store)` from @patchbay/platform (write, read back, delete a probe object).
 * - Patchbay's own blobs: `new S3BlobStore({ ...parseS3Url(BLOB_STORE_URL), credentials })`, the
 *   caller reading the credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY): adapters never read
 *   the environment. Give the bucket a lifecycle rule that aborts incomplete multipart uploads after
 *   a day: the store aborts its own failed uploads, but not those of a process that crashed.
 *
 * Failures: NotFoundError (missing object), RangeNotSatisfiableError, BadRequestError (bad key,
 * before any request), and BlobStoreUnavailableError with a `reason` for everything else; options
 * that cannot work throw BlobStoreUnavailableError('invalid_config') from the constructor.
 */
export { S3BlobStore } from './s3-blob-store';
export type { S3BlobStoreOptions, S3Credentials } from './s3-options';
export { parseS3Url } from './s3-url';
