import { Type } from '@sinclair/typebox';
import { CommonConfig, ConfigError, loadConfig } from '@patchbay/platform';
import { DEFAULT_EXPORT_SETTINGS, RecordsConfig, recordsSettings } from '../src/config';

const settingsOf = (env: NodeJS.ProcessEnv) =>
  recordsSettings(loadConfig(Type.Object({ ...CommonConfig, ...RecordsConfig }), env));

/** The ConfigError `run` throws (fails the test when it throws none, or another error). */
function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('no ConfigError was thrown');
}

test('recordsSettings: the export defaults; the credentials key file of the embedded store unless a key is set', () => {
  const s = settingsOf({ DATA_DIR: '/var/lib/pb' });
  expect(s.exports).toEqual(DEFAULT_EXPORT_SETTINGS);
  expect(s.credentialKeys).toEqual({ current: null, old: [], keyFile: '/var/lib/pb/records/credentials.key' });
});

test('RECORDS_CREDENTIALS_KEY and its old keys are read; required with MongoDB', () => {
  const key = Buffer.alloc(32, 3).toString('base64');
  const old = [Buffer.alloc(32, 4).toString('base64'), Buffer.alloc(32, 5).toString('base64url')];
  const keys = settingsOf({
    RECORDS_CREDENTIALS_KEY: key,
    RECORDS_CREDENTIALS_OLD_KEYS: old.join(', '),
  }).credentialKeys;
  expect(keys?.current?.toString('base64')).toBe(key);
  expect(keys?.old).toEqual([Buffer.alloc(32, 4), Buffer.alloc(32, 5)]);
  const missing = configErrorOf(() => settingsOf({ MONGODB_URL: 'mongodb://db:27017' }));
  expect(missing.problems).toEqual([expect.stringMatching(/^RECORDS_CREDENTIALS_KEY: required with MONGODB_URL/)]);
  expect(
    settingsOf({ MONGODB_URL: 'mongodb://db:27017', RECORDS_CREDENTIALS_KEY: key }).credentialKeys?.current,
  ).toEqual(Buffer.alloc(32, 3));
});

test('a bad key is a problem naming its variable, never echoing its value', () => {
  const notBase64 = 'not base64 at all: s3cr3t!';
  const short = Buffer.alloc(16, 6).toString('base64');
  const cases: Array<[NodeJS.ProcessEnv, string, RegExp]> = [
    [{ RECORDS_CREDENTIALS_KEY: notBase64 }, notBase64, /^RECORDS_CREDENTIALS_KEY: .*not Base64/],
    [{ RECORDS_CREDENTIALS_KEY: short }, short, /^RECORDS_CREDENTIALS_KEY: .*exactly 32 bytes \(got 16 bytes\)/],
    [
      { RECORDS_CREDENTIALS_OLD_KEYS: `${Buffer.alloc(32, 1).toString('base64')},${notBase64}` },
      notBase64,
      /^RECORDS_CREDENTIALS_OLD_KEYS \(key 2 of 2\): .*not Base64/,
    ],
  ];
  for (const [env, value, says] of cases) {
    const err = configErrorOf(() => settingsOf(env));
    expect(err.problems).toEqual([expect.stringMatching(says)]);
    expect(err.message).not.toContain(value);
    expect(err.problems.join('\n')).not.toContain(value);
  }
});
