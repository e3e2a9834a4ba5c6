import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@patchbay/platform';
import { loadPushSettings } from '../src/config';

const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('push configuration', () => {
  test('defaults: Google and Apple hosts, a send deadline 2 s inside the bus timeout', () => {
    const s = loadPushSettings({ BUS_TIMEOUT_MS: '9000' });
    expect(s.fcmEndpoint).toBeUndefined();
    expect(s.apns).toEqual({ production: undefined, development: undefined, ca: undefined, insecure: false });
    expect(s.sendDeadlineMs).toBe(7000);
    expect(s.retry).toEqual({ maxRetries: 3, baseMs: 200 });
  });

  test('local endpoints: the sandbox defaults to the production endpoint; FCM with its CA', () => {
    const ca = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'push-config-')), 'ca.pem');
    fs.writeFileSync(ca, 'PEM');
    const s = loadPushSettings({
      FCM_ENDPOINT: '127.0.0.1:9001',
      FCM_CA: ca,
      PUSH_SEND_WORKERS: '0',
      APNS_ENDPOINT: 'localhost:9002',
      APNS_INSECURE: 'true',
      PUSH_SEND_DEADLINE_MS: '1500',
    });
    expect(s.fcmEndpoint).toEqual({ host: '127.0.0.1', port: 9001, ca: 'PEM' });
    expect(s.sendWorkers).toBe(0);
    expect(s.apns).toMatchObject({
      production: { host: 'localhost', port: 9002 },
      development: { host: 'localhost', port: 9002 },
      insecure: true,
    });
    expect(s.sendDeadlineMs).toBe(1500);
  });

  test('bad values stop start-up naming the key', () => {
    expect(() => loadPushSettings({ FCM_ENDPOINT: 'http://x' })).toThrow(/FCM_ENDPOINT/);
    expect(loadPushSettings({}).sendWorkers).toBe(os.availableParallelism());
    expect(() => loadPushSettings({ APNS_INSECURE: 'true' })).toThrow(ConfigError);
    expect(() => loadPushSettings({ APNS_ENDPOINT: '127.0.0.1:1', APNS_CA: '/no/such/ca.pem' })).toThrow(/APNS_CA/);
  });

  test('the FCM test endpoint cannot be hit by accident: loopback only, always with its CA, TLS never off', () => {
    expect(problemsOf(() => loadPushSettings({ FCM_ENDPOINT: 'fcm.example.com:443', FCM_CA: '/no/ca.pem' }))).toEqual([
      expect.stringMatching(/^FCM_ENDPOINT: tests and benchmarks only, must be a loopback address/),
      expect.stringMatching(/^FCM_CA: no such file/),
    ]);
    expect(problemsOf(() => loadPushSettings({ FCM_ENDPOINT: '127.0.0.1:9001' }))).toEqual([
      expect.stringMatching(/^FCM_CA: required with FCM_ENDPOINT/),
    ]);
    expect(problemsOf(() => loadPushSettings({ FCM_CA: __filename }))).toEqual([
      expect.stringMatching(/^FCM_CA: only allowed together with FCM_ENDPOINT/),
    ]);
  });

  test(
    'credentials keys: Base64 of 32 bytes, old keys comma-separated; ' +
      'without one the embedded store uses a key file',
    () => {
      const [k1, k2, k3] = [randomBytes(32), randomBytes(32), randomBytes(32)];
      const s = loadPushSettings({
        PUSH_CREDENTIALS_KEY: k1.toString('base64'),
        PUSH_CREDENTIALS_OLD_KEYS: `${k2.toString('base64')}, ${k3.toString('base64url')}`,
      });
      expect(s.credentialKeys.current?.equals(k1)).toBe(true);
      expect(s.credentialKeys.old.map((k) => k.toString('hex'))).toEqual([k2.toString('hex'), k3.toString('hex')]);
      const embedded = loadPushSettings({ DATA_DIR: '/var/lib/patchbay' });
      expect(embedded.credentialKeys).toEqual({
        current: null,
        old: [],
        keyFile: path.resolve('/var/lib/patchbay/push/credentials.key'),
      });
    },
  );

  test('a credentials key that is not 32 bytes stops start-up naming the key, never echoing it', () => {
    const short = randomBytes(16).toString('base64');
    const problems = problemsOf(() =>
      loadPushSettings({
        PUSH_CREDENTIALS_KEY: short,
        PUSH_CREDENTIALS_OLD_KEYS: `${randomBytes(32).toString('base64')},not base64!`,
      }),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^PUSH_CREDENTIALS_KEY: .*exactly 32 bytes \(got 16 bytes\)/);
    expect(problems[1]).toMatch(/^PUSH_CREDENTIALS_OLD_KEYS \(key 2 of 2\): .*not Base64/);
    expect(problems.join('\n')).not.toContain(short);
  });

  test('MongoDB without PUSH_CREDENTIALS_KEY is refused: replicas must share one key', () => {
    const problems = problemsOf(() => loadPushSettings({ MONGODB_URL: 'mongodb://db:27017/?replicaSet=rs0' }));
    expect(problems).toEqual([expect.stringMatching(/^PUSH_CREDENTIALS_KEY: required with MONGODB_URL/)]);
    expect(
      loadPushSettings({ MONGODB_URL: 'mongodb://db:27017', PUSH_CREDENTIALS_KEY: randomBytes(32).toString('base64') })
        .credentialKeys.current,
    ).toHaveLength(32);
  });
});
