/**
 * One root jest config. Six projects:
 *  - fast: the services' domain, operations and handlers tests (services/<name>/test/{domain,
 *    operations,handlers}): in-process only — a MemoryBus, in-memory SQLite, a tmp-dir blob store —
 *    never a nats-server, ffmpeg or a Patchbay instance. `pnpm test:unit` runs it alone (≤ 60 s);
 *    a test that needs an external process belongs in another folder of the service's test/;
 *  - unit: every other package's and service's own tests (ports' contract suites, domain rules), and the
 *    offline checks of the deployment files (tests/deploy: Dockerfile, compose, Kubernetes, bundles),
 *    and the MongoDB-wire emulator's own tests (tests/mongo);
 *  - api-embedded / api-distributed: the same public-API suite (tests/api) against the all-in-one
 *    process and against every service in its own process over a real nats-server; the distributed
 *    project also runs tests/distributed (replicas, restarts: things only that mode has). Every
 *    response these tests receive is checked against the served OpenAPI document (conformance.ts);
 *  - launch: Patchbay started as a person starts it (`pnpm start`, `pnpm start:distributed`) in a
 *    process group of its own, signalled and killed as a terminal or a supervisor does (tests/launch);
 *    each file starts its own instances, so the project has no shared one;
 *  - browser: the partner console (tests/console) in Debian's chromium, against one embedded
 *    instance the test file starts with a fake FCM beside it.
 */
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const common = { transform, testEnvironment: 'node', moduleFileExtensions: ['ts', 'js', 'json'] };
/** The fast tier's folders: also excluded from `unit`, so `pnpm test` runs each test once. */
const fastDirs = ['domain', 'operations', 'handlers'];
module.exports = {
  testTimeout: 30000,
  projects: [
    {
      ...common,
      displayName: 'fast',
      testMatch: fastDirs.map((dir) => `<rootDir>/services/*/test/${dir}/**/*.test.ts`),
    },
    {
      ...common,
      displayName: 'unit',
      testPathIgnorePatterns: ['/node_modules/', ...fastDirs.map((dir) => `/services/[^/]+/test/${dir}/`)],
      testMatch: [
        '<rootDir>/packages/*/test/**/*.test.ts',
        '<rootDir>/services/*/test/**/*.test.ts',
        '<rootDir>/tests/deploy/**/*.test.ts',
        '<rootDir>/tests/mongo/**/*.test.ts',
      ],
    },
    {
      ...common,
      displayName: 'api-embedded',
      globals: { __PATCHBAY_MODE__: 'embedded' },
      testMatch: ['<rootDir>/tests/api/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/harness/global-setup-embedded.ts',
      setupFilesAfterEnv: ['<rootDir>/tests/harness/conformance.ts'],
      globalTeardown: '<rootDir>/tests/harness/global-teardown.ts',
    },
    {
      ...common,
      displayName: 'launch',
      testMatch: ['<rootDir>/tests/launch/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/tests/console/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/console/global-setup.ts',
    },
    {
      ...common,
      displayName: 'api-distributed',
      // The all-in-one's own traced instance; the distributed set's tracing is tests/distributed/traces.test.ts.
      testPathIgnorePatterns: ['<rootDir>/tests/api/tracing-background.test.ts'],
      globals: { __PATCHBAY_MODE__: 'distributed' },
      testMatch: ['<rootDir>/tests/api/**/*.test.ts', '<rootDir>/tests/distributed/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/harness/global-setup-distributed.ts',
      setupFilesAfterEnv: ['<rootDir>/tests/harness/conformance.ts'],
      globalTeardown: '<rootDir>/tests/harness/global-teardown.ts',
    },
  ],
};
