/**
 * One meaning per setting: every service is started with its own `<svc>Settings(config)` in both
 * run modes, so a service's settings from its own keys (what its main.ts loads, distributed) and
 * from the all-in-one process's keys (embedded) must be equal for the same environment — the check
 * that caught STORAGE_URL meaning one thing to the all-in-one process and another to storage alone.
 */
import { Type, type TProperties } from '@sinclair/typebox';
import { randomBytes } from 'node:crypto';
import { CommonConfig, loadConfig } from '@patchbay/platform';
import { EndpointConfig, endpointSettings } from '@patchbay/endpoint';
import { FileServerConfig, fileServerSettings } from '@patchbay/file-server';
import { GatewayConfig, gatewaySettings } from '@patchbay/gateway';
import { IdentityConfig, identitySettings } from '@patchbay/identity';
import { PushConfig, pushSettings } from '@patchbay/push';
import { RecordsConfig, recordsSettings } from '@patchbay/records';
import { StorageConfig, storageSettings } from '@patchbay/storage';
import { ThresholdWorkerConfig, thresholdWorkerSettings } from '@patchbay/threshold-worker';
import { TranscoderConfig, transcoderSettings } from '@patchbay/transcoder';
import { AllInOneConfig } from '../src/config';

/** What the service's own main.ts loads: CommonConfig and its keys (bootService). */
const own = (keys: TProperties, env: NodeJS.ProcessEnv) => loadConfig(Type.Object({ ...CommonConfig, ...keys }), env);
const embedded = (env: NodeJS.ProcessEnv) => loadConfig(AllInOneConfig, env);

// The launchers' view is loose on purpose (bootService types the composed schema the same way).
type Mapping = [string, TProperties, (c: never) => unknown];
const MAPPINGS: Mapping[] = [
  ['identity', IdentityConfig, identitySettings],
  ['records', RecordsConfig, recordsSettings],
  ['endpoint', EndpointConfig, endpointSettings],
  ['push', PushConfig, pushSettings],
  ['storage', StorageConfig, storageSettings],
  ['threshold-worker', ThresholdWorkerConfig, thresholdWorkerSettings],
  ['file-server', FileServerConfig, fileServerSettings],
  ['transcoder', TranscoderConfig, transcoderSettings],
  ['gateway', GatewayConfig, gatewaySettings],
];

const ENVS: Record<string, NodeJS.ProcessEnv> = {
  defaults: { DATA_DIR: '/tmp/pb-settings' },
  'a file server port, shared stores': {
    STORAGE_PORT: '9181',
    MONGODB_URL: 'mongodb://db:27017',
    NATS_URL: 'nats://nats:4222',
    BUS_TIMEOUT_MS: '7000',
    PUSH_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    STORAGE_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    ENDPOINT_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    RECORDS_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    THRESHOLD_SWEEP_INTERVAL: '60',
    LOGIN_MAX_FAILURES: '9',
    HOSTED_API_URL: 'https://hosted.example/',
  },
  'explicit choices': {
    STORAGE_URL: 'https://files.example',
    STORAGE_RECONCILE_ON_START: 'false',
    STORAGE_REQUEUE_TRANSCODING_ON_START: 'true',
    FILE_CACHE_MS: '0',
  },
};

describe.each(Object.entries(ENVS))('%s', (_name, env) => {
  test.each(MAPPINGS)('%s: the same settings alone and in the all-in-one process', (_svc, keys, settings) => {
    const run = settings as (c: unknown) => unknown;
    expect(run(embedded(env))).toEqual(run(own(keys, env)));
  });
});

test('the public file server URL has one meaning: STORAGE_URL, else http://127.0.0.1:<STORAGE_PORT>', () => {
  const env = { STORAGE_PORT: '9181' };
  const storage = storageSettings(own(StorageConfig, env) as never);
  expect(storage).toMatchObject({ storageUrl: 'http://127.0.0.1:9181' });
  expect(gatewaySettings(own(GatewayConfig, env) as never)).toMatchObject({ storageUrl: 'http://127.0.0.1:9181' });
  expect(fileServerSettings(own(FileServerConfig, env) as never)).toMatchObject({ port: 9181 });
  expect(storageSettings(own(StorageConfig, { STORAGE_URL: 'https://files.example' }) as never).storageUrl).toBe(
    'https://files.example',
  );
});
