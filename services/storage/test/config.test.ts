import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { CommonConfig, loadConfig } from '@patchbay/platform';
import { StorageConfig, storageSettings } from '../src/config';

const settingsOf = (env: NodeJS.ProcessEnv) =>
  storageSettings(loadConfig(Type.Object({ ...CommonConfig, ...StorageConfig }), env));

const KEY = randomBytes(32).toString('base64');

describe('storageSettings', () => {
  test('media probes: 15 s timeout, retried after 5 s doubling to 60 s; the store holds them without NATS', () => {
    expect(settingsOf({}).probe).toEqual({
      timeoutMs: 15_000,
      retry: { firstMs: 5_000, maxMs: 60_000 },
      queue: 'store',
    });
    expect(settingsOf({ NATS_URL: 'nats://n:4222', STORAGE_PROBE_RETRY_MS: '500' }).probe).toMatchObject({
      retry: { firstMs: 500 },
      queue: 'bus',
    });
    expect(() => settingsOf({ STORAGE_PROBE_RETRY_MS: '9000', STORAGE_PROBE_RETRY_MAX_MS: '8000' })).toThrow(
      /STORAGE_PROBE_RETRY_MAX_MS \(8000\) must be at least STORAGE_PROBE_RETRY_MS \(9000\)/,
    );
    expect(() => settingsOf({ STORAGE_PROBE_TIMEOUT_MS: '10' })).toThrow(/STORAGE_PROBE_TIMEOUT_MS/);
  });

  test(
    'credentials key: STORAGE_CREDENTIALS_KEY (and old keys), else a key ' +
      'file in the data directory; required with MongoDB, never echoed',
    () => {
      expect(settingsOf({ DATA_DIR: '/var/lib/pb' }).credentialKeys).toEqual({
        current: null,
        old: [],
        keyFile: '/var/lib/pb/storage/credentials.key',
      });
      const old = randomBytes(32);
      const keys = settingsOf({
        STORAGE_CREDENTIALS_KEY: KEY,
        STORAGE_CREDENTIALS_OLD_KEYS: old.toString('base64'),
      }).credentialKeys!;
      expect(keys.current!.toString('base64')).toBe(KEY);
      expect(keys.old.map((k) => k.toString('hex'))).toEqual([old.toString('hex')]);
      expect(() => settingsOf({ MONGODB_URL: 'mongodb://db:27017' })).toThrow(
        /STORAGE_CREDENTIALS_KEY: required with MONGODB_URL/,
      );
      const short = randomBytes(16).toString('base64');
      expect(() => settingsOf({ STORAGE_CREDENTIALS_KEY: short })).toThrow(
        /STORAGE_CREDENTIALS_KEY: must be Base64 of exactly 32 bytes/,
      );
      try {
        settingsOf({ STORAGE_CREDENTIALS_KEY: short });
      } catch (err) {
        expect(String(err)).not.toContain(short);
      }
    },
  );

  test('publish_uri root: STORAGE_URL, else the file server on STORAGE_PORT (8081)', () => {
    expect(settingsOf({}).storageUrl).toBe('http://127.0.0.1:8081');
    expect(settingsOf({ STORAGE_PORT: '9000' }).storageUrl).toBe('http://127.0.0.1:9000');
    expect(settingsOf({ STORAGE_URL: 'https://files.example', STORAGE_PORT: '9000' }).storageUrl).toBe(
      'https://files.example',
    );
  });

  test('reconcile on start: on with the embedded store, off with MongoDB (replicas), unless set', () => {
    expect(settingsOf({}).reconcileOnStart).toBe(true);
    expect(settingsOf({ MONGODB_URL: 'mongodb://db:27017', STORAGE_CREDENTIALS_KEY: KEY }).reconcileOnStart).toBe(
      false,
    );
    expect(
      settingsOf({
        MONGODB_URL: 'mongodb://db:27017',
        STORAGE_CREDENTIALS_KEY: KEY,
        STORAGE_RECONCILE_ON_START: 'true',
      }).reconcileOnStart,
    ).toBe(true);
    expect(settingsOf({ STORAGE_RECONCILE_ON_START: 'false' }).reconcileOnStart).toBe(false);
  });

  test('requeue transcoding on start: on with the in-process bus, off with NATS, unless set; times as given', () => {
    expect(settingsOf({}).requeueTranscodingOnStart).toBe(true);
    expect(settingsOf({ NATS_URL: 'nats://n:4222' }).requeueTranscodingOnStart).toBe(false);
    expect(
      settingsOf({ NATS_URL: 'nats://n:4222', STORAGE_REQUEUE_TRANSCODING_ON_START: 'true' }).requeueTranscodingOnStart,
    ).toBe(true);
    expect(
      settingsOf({ UPLOAD_STALE_MS: '5000', UPLOAD_SWEEP_INTERVAL_MS: '600', BUS_TIMEOUT_MS: '3000' }),
    ).toMatchObject({ uploadStaleMs: 5000, sweepIntervalMs: 600, busTimeoutMs: 3000 });
  });
});
