/**
 * `pnpm test:mongo` (tests/mongo/test-mongo.ts): the root config's projects, narrowed to what runs
 * against MONGODB_URL —
 *  - unit: the MongoDB document-store and GridFS blob-store contract suites;
 *  - api-embedded: the whole public-API suite on the all-in-one process;
 *  - api-distributed: a subset of it with every service in its own process over NATS, each with
 *    its own connections to the same server (the multi-writer case).
 */
const path = require('node:path');
const root = require('../../jest.config.js');

const rootDir = path.resolve(__dirname, '../..');
const project = (name) => ({ ...root.projects.find((p) => p.displayName === name), rootDir });

/**
 * Where several processes share the databases: uploads and counters, unique keys, devices, records,
 * idempotency keys (identity's, and storage's on committed files);
 * and GridFS written and read by the gateway, transcoders and file servers, and left behind by a crash.
 */
const DISTRIBUTED_SUBSET = [
  'storage-files',
  'storage-limits',
  'storage-containers',
  'endpoints-conflict',
  'push-devices',
  'records',
  'auth',
  'file-server',
  'transcoding',
  'storage-crash',
  'idempotency',
].map((name) => `<rootDir>/tests/api/${name}.test.ts`);

/**
 * Suites whose subject is not the document store, left to the main run: the NeDB migration (the
 * embedded store's own: on MongoDB there is nothing to migrate), the data directory's lock and the
 * bare machine (SQLite's), the documents the gateway serves (OpenAPI, /docs, the console page,
 * countries), process signals and the banner, the transcoder's own limits and deadlines, the push
 * transport's address guard, slow clients and early answers, filters refused before any query, and
 * the command line (a client of the same API). Each reads or writes the store no differently from the
 * suites that stay, so they would only run the same queries again at the cost of minutes.
 */
const STORE_AGNOSTIC = [
  'store-migration',
  'data-dir-lock',
  'bare-machine',
  'openapi',
  'docs-page',
  'console-page',
  'countries',
  'start-signals',
  'start-banner',
  'transcoding-capacity',
  'transcoding-fidelity',
  'external-probe-deadline',
  'outbound-guard',
  'slow-clients',
  'early-answers',
  'filter-bounds',
  'cli',
  'cli-files',
  'cli-lists',
  'media-cli',
  'records-cli',
  'records-usage-cli',
].map((name) => `<rootDir>/tests/api/${name}.test.ts`);

module.exports = {
  rootDir,
  testTimeout: root.testTimeout,
  projects: [
    {
      ...project('unit'),
      testMatch: [
        '<rootDir>/packages/platform/test/doc-store/mongo-doc-store.test.ts',
        '<rootDir>/packages/platform/test/blob-store/gridfs-blob-store.test.ts',
      ],
    },
    { ...project('api-embedded'), testPathIgnorePatterns: STORE_AGNOSTIC },
    { ...project('api-distributed'), testMatch: DISTRIBUTED_SUBSET },
  ],
};
