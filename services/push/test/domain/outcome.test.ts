import { apnsOutcome, fcmOutcome } from '../../src/domain/outcome';

describe('fcmOutcome', () => {
  test.each([
    ['messaging/registration-token-not-registered', { retry: false, result: 'unregistered' }],
    ['messaging/invalid-registration-token', { retry: false, result: 'invalid_token' }],
    ['messaging/invalid-argument', { retry: false, result: 'invalid_token' }],
    ['messaging/server-unavailable', { retry: true }],
    ['messaging/internal-error', { retry: true }],
    ['app/network-error', { retry: true }],
    ['app/network-timeout', { retry: false, result: 'provider_error' }],
    ['messaging/third-party-auth-error', { retry: false, result: 'provider_error' }],
  ])('%s', (code, expected) => {
    expect(fcmOutcome(code)).toMatchObject(expected);
  });
});

describe('apnsOutcome', () => {
  test.each([
    [
      { status: 410, response: { reason: 'Unregistered' } },
      { retry: false, result: 'unregistered' },
    ],
    [
      { status: 400, response: { reason: 'BadDeviceToken' } },
      { retry: false, result: 'invalid_token' },
    ],
    [
      { status: 400, response: { reason: 'DeviceTokenNotForTopic' } },
      { retry: false, result: 'invalid_token' },
    ],
    [{ status: 503, response: { reason: 'ServiceUnavailable' } }, { retry: true }],
    [{ status: 429, response: { reason: 'TooManyRequests' } }, { retry: true }],
    [
      { status: 403, response: { reason: 'InvalidProviderToken' } },
      { retry: false, result: 'provider_error' },
    ],
    [{ error: { message: 'apn write failed: connect ECONNREFUSED' } }, { retry: true }],
    [{ error: { message: 'apn write timeout' } }, { retry: false, result: 'provider_error' }],
  ])('%j', (failure, expected) => {
    expect(apnsOutcome(failure)).toMatchObject(expected);
  });
});
