/**
 * `pnpm test:s3` (tests/s3/test-s3.ts): the public-API suite on the all-in-one process with
 * Patchbay's own blobs on S3 (an s3rver the script starts; BLOB_STORE_URL points at it).
 */
const path = require('node:path');
const root = require('../../jest.config.js');

const rootDir = path.resolve(__dirname, '../..');
const project = (name) => ({ ...root.projects.find((p) => p.displayName === name), rootDir });

/**
 * Left out: what a crash or a disconnect mid-upload (or mid-recording) leaves in the blob store is
 * adapter-specific (these tests wait for the directory store's temp files or GridFS's chunks to
 * appear before they kill the process). S3 shows an
 * object only once its PutObject or CompleteMultipartUpload succeeds, so there is nothing to watch;
 * the S3 adapter's contract suite checks that atomicity, and a bucket lifecycle rule removes the
 * parts of a multipart upload a crash abandoned (docs/operations.md, "Blob storage").
 */
const ADAPTER_SPECIFIC = [
  '<rootDir>/tests/api/storage-crash.test.ts',
  '<rootDir>/tests/api/media-crash.test.ts',
  // The NeDB migration's fixture keeps its blobs in a directory store.
  '<rootDir>/tests/api/store-migration.test.ts',
];

/**
 * Left out as well: suites that never store or read a blob (records, push, endpoints, auth, the
 * OpenAPI and docs pages, …). They run in `pnpm test` and `pnpm test:mongo`; here they would only
 * repeat themselves on a blob store they do not touch.
 */
const NO_BLOBS = [
  'auth',
  'countries',
  'console-page',
  'data-dir-lock',
  'docs-page',
  'endpoints',
  'endpoints-conflict',
  'endpoints-links',
  'endpoints-list',
  'endpoints-update',
  'errors',
  'large-pages-records',
  'login-throttle',
  'openapi',
  'partner-backfill',
  'push-applications',
  'push-credentials-at-rest',
  'push-devices',
  'push-notifications',
  'push-transport',
  'records',
  'records-cli',
  'records-fields',
  'records-ingest',
  'records-ingest-crash',
  'records-message-order',
  'records-shuffle',
  'records-tenancy',
  'start-banner',
].map((name) => `<rootDir>/tests/api/${name}.test.ts`);

module.exports = {
  rootDir,
  testTimeout: root.testTimeout,
  projects: [{ ...project('api-embedded'), testPathIgnorePatterns: [...ADAPTER_SPECIFIC, ...NO_BLOBS] }],
};
