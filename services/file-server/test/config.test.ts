import { Type } from '@sinclair/typebox';
import { CommonConfig, DEFAULT_HTTP_TIMEOUTS, loadConfig } from '@patchbay/platform';
import { FileServerConfig, fileServerSettings } from '../src/config';

const settingsOf = (env: NodeJS.ProcessEnv) =>
  fileServerSettings(loadConfig(Type.Object({ ...CommonConfig, ...FileServerConfig }), env));

test('fileServerSettings: port, cache and timeouts from their keys, with their defaults', () => {
  const http = DEFAULT_HTTP_TIMEOUTS;
  expect(settingsOf({})).toEqual({
    port: 8081,
    cacheTtlMs: 5000,
    busTimeoutMs: 10000,
    transcodeTimeoutMs: 120000,
    http,
    host: '127.0.0.1',
  });
  expect(
    settingsOf({
      STORAGE_PORT: '0',
      FILE_CACHE_MS: '0',
      BUS_TIMEOUT_MS: '2000',
      TRANSCODE_TIMEOUT_MS: '5000',
      HOST: '0.0.0.0',
    }),
  ).toEqual({ port: 0, cacheTtlMs: 0, busTimeoutMs: 2000, transcodeTimeoutMs: 5000, http, host: '0.0.0.0' });
  expect(() => settingsOf({ HOST: 'every-interface' })).toThrow(/HOST/);
  expect(
    settingsOf({
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '7000',
      HTTP_BODY_TIMEOUT_MS: '9000',
      HTTP_BODY_MIN_BYTES: '1',
    }).http,
  ).toEqual({ headersMs: 5000, keepAliveMs: 7000, bodyMs: 9000, bodyMinBytes: 1 });
  expect(() => settingsOf({ HTTP_BODY_MIN_BYTES: '0' })).toThrow(/HTTP_BODY_MIN_BYTES/);
  expect(() => settingsOf({ STORAGE_PORT: '70000' })).toThrow(/STORAGE_PORT/);
});

test('FILE_SERVER_ACCEL_REDIRECT: an internal location prefix, passed on; anything else refused naming the key', () => {
  expect(settingsOf({ FILE_SERVER_ACCEL_REDIRECT: '/_patchbay_blobs/' }).accelRedirect).toBe('/_patchbay_blobs/');
  expect(settingsOf({}).accelRedirect).toBeUndefined();
  for (const bad of ['_blobs/', '/blobs', '/../x/', 'http://x/'])
    expect(() => settingsOf({ FILE_SERVER_ACCEL_REDIRECT: bad })).toThrow(/FILE_SERVER_ACCEL_REDIRECT/);
});
