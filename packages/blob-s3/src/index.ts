export { S3BlobStore } from './s3-blob-store';
export type { S3BlobStoreOptions, S3Credentials } from './s3-options';
export { parseS3Url } from './s3-url';
