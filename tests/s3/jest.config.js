/**
 * `pnpm test:s3` (tests/s3/test-s3.ts): the public-API suite on the all-in-one process with
 * Patchbay's own blobs on S3 (an s3rver the script starts; BLOB_STORE_URL points at it).
 */
const path = require('node:path');
const root = require('../../jest.config.js');

const rootDir = path.resolve(__dirname, '../..');
const project = (name) => ({ ...root.projects.find((p) => p.displayName === name), rootDir });

module.exports = {
  rootDir,
  testTimeout: root.testTimeout,
  projects: [project('api-embedded')],
};
