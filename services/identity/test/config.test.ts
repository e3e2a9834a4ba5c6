import { Type } from '@sinclair/typebox';
import { loadConfig } from '@patchbay/platform';
import { DEFAULT_IDENTITY_SETTINGS, IdentityConfig, identitySettings } from '../src/config';

const settingsOf = (env: NodeJS.ProcessEnv) => identitySettings(loadConfig(Type.Object(IdentityConfig), env));

test(
  'identitySettings: defaults are DEFAULT_IDENTITY_SETTINGS; seconds ' +
    'become milliseconds; a lock grows to at most 15 min (login) and 1 h ' +
    '(address)',
  () => {
    expect(settingsOf({})).toEqual(DEFAULT_IDENTITY_SETTINGS);
    const s = settingsOf({
      LOGIN_MAX_FAILURES: '3',
      LOGIN_LOCK_SECONDS: '10',
      ADDRESS_MAX_FAILURES: '50',
      ADDRESS_LOCK_SECONDS: '7200',
      LOGIN_FAILURE_WINDOW_SECONDS: '60',
    });
    expect(s.throttle.login).toMatchObject({
      maxFailures: 3,
      windowMs: 60_000,
      lockMs: 10_000,
      maxLockMs: 900_000,
      slowMs: 250,
    });
    expect(s.throttle.address).toMatchObject({
      maxFailures: 50,
      windowMs: 60_000,
      lockMs: 7_200_000,
      maxLockMs: 7_200_000,
      slowMs: 0,
    });
    expect(() => settingsOf({ LOGIN_MAX_FAILURES: '0' })).toThrow(/LOGIN_MAX_FAILURES/);
  },
);

test('IDEMPOTENCY_KEY_HOURS: 24 by default, in milliseconds; less than 24 hours is refused naming it', () => {
  expect(settingsOf({}).idempotencyKeyMs).toBe(24 * 3_600_000);
  expect(settingsOf({ IDEMPOTENCY_KEY_HOURS: '72' }).idempotencyKeyMs).toBe(72 * 3_600_000);
  expect(() => settingsOf({ IDEMPOTENCY_KEY_HOURS: '12' })).toThrow(/IDEMPOTENCY_KEY_HOURS/);
});
