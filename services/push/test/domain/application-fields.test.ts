import { CREDENTIAL_MASK, UnprocessableError } from '@patchbay/contracts';
import {
  APPLICATION_DEFAULTS,
  checkApplication,
  credentialsRevision,
  mergeApplication,
  platformsOf,
} from '../../src/domain/application-fields';
import { fakeApnsTokenKey, fakeServiceAccount } from '../../../../tests/support/fake-credentials';

const sa = fakeServiceAccount('fields');

describe('mergeApplication', () => {
  const current = {
    ...APPLICATION_DEFAULTS,
    name: 'cur',
    google_credentials: sa.base64,
    apns_p12: 'P12',
    apns_p12_password: 'pw',
    apns_topic: 't',
  };

  test('PATCH changes only named fields; the mask keeps a stored credential; null clears', () => {
    const next = mergeApplication(
      current,
      { name: 'new', google_credentials: CREDENTIAL_MASK, apns_topic: null },
      false,
    );
    expect(next).toEqual({ ...current, name: 'new', apns_topic: null });
  });

  test('PUT starts from the defaults (masked credentials are still kept)', () => {
    expect(mergeApplication(current, { apns_p12: CREDENTIAL_MASK, apns_p12_password: CREDENTIAL_MASK }, true)).toEqual({
      ...APPLICATION_DEFAULTS,
      apns_p12: 'P12',
      apns_p12_password: 'pw',
    });
  });

  test('clearing apns_p12 clears its password', () => {
    expect(mergeApplication(current, { apns_p12: null }, false).apns_p12_password).toBeNull();
  });
});

describe('checkApplication', () => {
  test('every problem in one 422', () => {
    const key = fakeApnsTokenKey();
    try {
      checkApplication({ ...APPLICATION_DEFAULTS, google_credentials: 'x', apns_p8: key.p8 }, null);
      throw new Error('expected a 422');
    } catch (err) {
      expect(err).toBeInstanceOf(UnprocessableError);
      expect((err as UnprocessableError).errors.map((e) => e.field)).toEqual([
        'google_credentials',
        'apns_key_id',
        'apns_team_id',
      ]);
    }
  });

  test('unchanged credentials are not re-opened; the revision follows what clients are built from', () => {
    const stored = { ...APPLICATION_DEFAULTS, google_credentials: 'already-checked-elsewhere' };
    const checked = checkApplication({ ...stored, name: 'renamed' }, { fields: stored, apns_p12_expiration: null });
    expect(checked.credentials_revision).toBe(credentialsRevision(stored));
    expect(credentialsRevision({ ...stored, apns_topic: 'x' })).not.toBe(checked.credentials_revision);
  });
});

describe('platformsOf', () => {
  test('FCM needs google_credentials; APNs needs a p12, or a p8 with key id, team id and topic', () => {
    expect(platformsOf({ ...APPLICATION_DEFAULTS })).toEqual({ fcm: false, apns: false });
    expect(platformsOf({ ...APPLICATION_DEFAULTS, google_credentials: 'g', apns_p12: 'p' })).toEqual({
      fcm: true,
      apns: true,
    });
    const p8 = { ...APPLICATION_DEFAULTS, apns_p8: 'k', apns_key_id: 'K', apns_team_id: 'T' };
    expect(platformsOf(p8).apns).toBe(false);
    expect(platformsOf({ ...p8, apns_topic: 'com.x' }).apns).toBe(true);
  });
});
