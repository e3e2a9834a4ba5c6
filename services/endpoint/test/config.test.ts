import { Type } from '@sinclair/typebox';
import { CommonConfig, loadConfig } from '@patchbay/platform';
import { DEFAULT_ENDPOINT_SETTINGS, EndpointConfig, endpointSettings } from '../src/config';

const settingsOf = (env: NodeJS.ProcessEnv) =>
  endpointSettings(loadConfig(Type.Object({ ...CommonConfig, ...EndpointConfig }), env));

test('endpointSettings: defaults are DEFAULT_ENDPOINT_SETTINGS; HOSTED_API_URL loses its trailing slashes; callbacks as given', () => {
  expect(settingsOf({})).toEqual(DEFAULT_ENDPOINT_SETTINGS);
  const s = settingsOf({
    HOSTED_API_URL: 'https://hosted.example//',
    BUS_TIMEOUT_MS: '3000',
    CALLBACK_ALLOW_PRIVATE: 'true',
    CALLBACK_TIMEOUT_MS: '500',
    CALLBACK_RETRY_BASE_MS: '20',
    CALLBACK_RETRY_FOR_MS: '5000',
  });
  expect(s).toEqual({
    hostedApiUrl: 'https://hosted.example',
    busTimeoutMs: 3000,
    callbacks: { allowPrivate: true, timeoutMs: 500, retryBaseMs: 20, retryForMs: 5000 },
  });
  expect(() => settingsOf({ HOSTED_API_URL: 'ftp://x' })).toThrow(/HOSTED_API_URL/);
});
