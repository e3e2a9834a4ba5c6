import { Type } from '@sinclair/typebox';
import { CommonConfig, loadConfig } from '@patchbay/platform';
import { DEFAULT_ENDPOINT_SETTINGS, EndpointConfig, endpointSettings } from '../src/config';

const settingsOf = (env: NodeJS.ProcessEnv) =>
  endpointSettings(loadConfig(Type.Object({ ...CommonConfig, ...EndpointConfig }), env));

test(
  'endpointSettings: defaults are DEFAULT_ENDPOINT_SETTINGS; ' +
    'HOSTED_API_URL loses its trailing slashes; callbacks as given',
  () => {
    const { credentialKeys, ...rest } = settingsOf({ DATA_DIR: '/var/lib/pb' });
    expect({ ...rest, credentialKeys: undefined }).toEqual(DEFAULT_ENDPOINT_SETTINGS);
    // Secrets keys: the generated key file of the embedded store unless ENDPOINT_CREDENTIALS_KEY is set.
    expect(credentialKeys).toEqual({ current: null, old: [], keyFile: '/var/lib/pb/endpoint/credentials.key' });
    const s = settingsOf({
      HOSTED_API_URL: 'https://hosted.example//',
      BUS_TIMEOUT_MS: '3000',
      CALLBACK_ALLOW_PRIVATE: 'true',
      CALLBACK_TIMEOUT_MS: '500',
      CALLBACK_RETRY_BASE_MS: '20',
      CALLBACK_RETRY_FOR_MS: '5000',
    });
    expect(s).toMatchObject({
      hostedApiUrl: 'https://hosted.example',
      busTimeoutMs: 3000,
      callbacks: { allowPrivate: true, timeoutMs: 500, retryBaseMs: 20, retryForMs: 5000 },
    });
    expect(() => settingsOf({ HOSTED_API_URL: 'ftp://x' })).toThrow(/HOSTED_API_URL/);
  },
);

test('secrets key: ENDPOINT_CREDENTIALS_KEY (and old keys), required with MongoDB, never echoed', () => {
  const key = Buffer.alloc(32, 3).toString('base64');
  const old = Buffer.alloc(32, 4).toString('base64');
  const keys = settingsOf({ ENDPOINT_CREDENTIALS_KEY: key, ENDPOINT_CREDENTIALS_OLD_KEYS: old }).credentialKeys;
  expect(keys?.current?.toString('base64')).toBe(key);
  expect(keys?.old.map((k) => k.toString('base64'))).toEqual([old]);
  expect(() => settingsOf({ MONGODB_URL: 'mongodb://db:27017' })).toThrow(
    /ENDPOINT_CREDENTIALS_KEY: required with MONGODB_URL/,
  );
  const short = Buffer.alloc(16, 5).toString('base64');
  expect(() => settingsOf({ ENDPOINT_CREDENTIALS_KEY: short })).toThrow(/exactly 32 bytes/);
  try {
    settingsOf({ ENDPOINT_CREDENTIALS_KEY: short });
  } catch (err) {
    expect((err as Error).message).not.toContain(short);
  }
});
