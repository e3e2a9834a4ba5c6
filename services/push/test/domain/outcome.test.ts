import { apnsOutcome, fcmOutcome } from '../../src/domain/outcome';

const fcmError = (status: string, errorCode?: string) =>
  JSON.stringify({
    error: {
      code: 0,
      message: 'm',
      status,
      details: errorCode ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] : [],
    },
  });

describe('fcmOutcome (FCM HTTP v1 answers)', () => {
  const now = Date.UTC(2030, 0, 1);
  test.each([
    [200, '{"name":"projects/p/messages/1"}', undefined, { retry: false, result: 'success' }],
    [404, fcmError('NOT_FOUND', 'UNREGISTERED'), undefined, { retry: false, result: 'unregistered' }],
    [400, fcmError('INVALID_ARGUMENT', 'INVALID_ARGUMENT'), undefined, { retry: false, result: 'invalid_token' }],
    [403, fcmError('PERMISSION_DENIED', 'SENDER_ID_MISMATCH'), undefined, { retry: false, result: 'provider_error' }],
    [401, fcmError('UNAUTHENTICATED'), undefined, { retry: false, result: 'provider_error' }],
    [429, fcmError('RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED'), '7', { retry: true, afterMs: 7000 }],
    [503, fcmError('UNAVAILABLE', 'UNAVAILABLE'), 'Tue, 01 Jan 2030 00:00:03 GMT', { retry: true, afterMs: 3000 }],
    [500, fcmError('INTERNAL', 'INTERNAL'), undefined, { retry: true }],
    [502, '<html>bad gateway</html>', undefined, { retry: true }],
    [400, 'not json', undefined, { retry: false, result: 'invalid_token' }],
  ])('%i %s', (status, body, retryAfter, expected) => {
    expect(fcmOutcome(status, body, retryAfter, now)).toMatchObject(expected);
  });

  test('a 500 carries no Retry-After delay; a 429 without one retries on the backoff alone', () => {
    expect(fcmOutcome(500, fcmError('INTERNAL', 'INTERNAL'), '9', now)).not.toHaveProperty('afterMs');
    expect(fcmOutcome(429, fcmError('RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED'), undefined, now)).not.toHaveProperty(
      'afterMs',
    );
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

  test("a 429 or 503 is retried no sooner than its Retry-After; a 500's is ignored", () => {
    const now = Date.UTC(2026, 10, 26);
    const failure = (status: number) => ({ status, response: { reason: 'TooManyRequests' }, retryAfter: '3' });
    expect(apnsOutcome(failure(429), now)).toEqual({ retry: true, detail: '429 TooManyRequests', afterMs: 3000 });
    expect(apnsOutcome(failure(503), now)).toMatchObject({ retry: true, afterMs: 3000 });
    expect(apnsOutcome(failure(500), now)).not.toHaveProperty('afterMs');
    expect(apnsOutcome({ status: 429, response: { reason: 'TooManyRequests' } }, now)).not.toHaveProperty('afterMs');
  });
});
