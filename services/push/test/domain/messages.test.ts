import { BadRequestError, type PushNotification } from '@patchbay/contracts';
import { toPushMessage } from '../../src/domain/push-message';
import { fcmBody, fcmMessage } from '../../src/domain/fcm-message';
import { apnsRequest } from '../../src/domain/apns-request';

const n = (extra: Partial<PushNotification>): PushNotification => ({ recipients: ['r'], ...extra });

describe('toPushMessage', () => {
  test('nulls are the same as absent fields', () => {
    expect(toPushMessage(n({ title: null, body: 'b', ios_badge: null, data: null }))).toEqual({
      body: 'b',
      android: {},
      ios: {},
    });
  });

  test('reserved data keys are a 400 naming each', () => {
    try {
      toPushMessage(n({ data: { from: 1, gcm_x: 2, ok: 3, aps: 4 } }));
      throw new Error('expected a 400');
    } catch (err) {
      expect(err).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).errors.map((e) => e.field)).toEqual(['data.from', 'data.gcm_x', 'data.aps']);
    }
  });
});

describe('fcmMessage', () => {
  const full = toPushMessage(
    n({
      title: 'T',
      body: 'B',
      data: { n: 1, s: 's' },
      priority: 'normal',
      ttl: 0,
      collapse_key: 'k',
      android_tag: 'tag',
    }),
  );

  test("android: notification, string data, android block in the API's field names, ttl as a Duration", () => {
    expect(fcmMessage(full, 'android')).toEqual({
      notification: { title: 'T', body: 'B' },
      data: { n: '1', s: 's' },
      android: { priority: 'normal', ttl: '0s', collapse_key: 'k', notification: { tag: 'tag' } },
    });
  });

  test('the request body: any token between one prefix and suffix', () => {
    const body = fcmBody(fcmMessage(full, 'android'));
    const token = 'tok:"quoted"';
    expect(JSON.parse(body.prefix + JSON.stringify(token) + body.suffix)).toEqual({
      message: { token, ...fcmMessage(full, 'android') },
    });
    const empty = fcmBody(fcmMessage(toPushMessage(n({})), 'web'));
    expect(JSON.parse(empty.prefix + JSON.stringify('t') + empty.suffix)).toEqual({ message: { token: 't' } });
  });

  test('web: Web Push headers; a collapse key that is not a valid Topic is left out', () => {
    expect(fcmMessage(full, 'web')).toMatchObject({
      webpush: { headers: { TTL: '0', Urgency: 'normal', Topic: 'k' } },
    });
    const long = toPushMessage(n({ collapse_key: 'has spaces and is far too long for a topic' }));
    expect(fcmMessage(long, 'web')).toEqual({});
  });

  test('an empty message is empty', () => {
    expect(fcmMessage(toPushMessage(n({})), 'android')).toEqual({});
    expect(fcmMessage(toPushMessage(n({})), 'web')).toEqual({});
  });
});

describe('apnsRequest', () => {
  const now = Date.UTC(2030, 0, 1);

  test('alert push at priority 10 by default, expiry from ttl, data beside aps', () => {
    const m = toPushMessage(n({ title: 'T', ttl: 60, data: { k: 'v' }, ios_sound: 'a.caf', collapse_key: 'c' }));
    expect(apnsRequest(m, 'com.x', now)).toEqual({
      payload: { k: 'v', aps: { alert: { title: 'T' }, sound: 'a.caf' } },
      pushType: 'alert',
      priority: 10,
      expiry: now / 1000 + 60,
      collapseId: 'c',
      topic: 'com.x',
    });
  });

  test('background pushes (content-available only, or empty) go at priority 5 even when high is asked', () => {
    expect(apnsRequest(toPushMessage(n({ ios_content_available: true, priority: 'high' })), undefined, now)).toEqual({
      payload: { aps: { 'content-available': 1 } },
      pushType: 'background',
      priority: 5,
    });
    expect(apnsRequest(toPushMessage(n({})), undefined, now)).toEqual({
      payload: { aps: {} },
      pushType: 'background',
      priority: 5,
    });
  });

  test('ttl 0 means "now or never"; ios_collapse_id wins over collapse_key, which must fit 64 bytes', () => {
    expect(apnsRequest(toPushMessage(n({ ttl: 0, ios_badge: 1 })), undefined, now).expiry).toBe(0);
    expect(apnsRequest(toPushMessage(n({ collapse_key: 'a', ios_collapse_id: 'b' })), undefined, now).collapseId).toBe(
      'b',
    );
    expect(apnsRequest(toPushMessage(n({ collapse_key: 'x'.repeat(65) })), undefined, now).collapseId).toBeUndefined();
  });
});
