import { mode } from '../harness/api';
import { fakeApnsP12 } from '../support/fake-credentials';
import { FakePushWorld, deviceToken, tokenApp } from '../support/fake-push-world';
import { until } from '../support/poll';

/**
 * Sending, end to end: Patchbay's own FCM v1 and APNs senders (HTTP/2 over TLS, with
 * google-auth-library's OAuth tokens and ES256 provider tokens), aimed at fake FCM and APNs servers on
 * 127.0.0.1, and assertions on what those servers received. One Patchbay
 * instance of its own for this file (tests/support/fake-push-world.ts), in the mode of the jest
 * project, with short deadlines so outages resolve quickly.
 */
const SEND_DEADLINE_MS = 4000;
const ATTEMPT_TIMEOUT_MS = 2500;
const MAX_RETRIES = 3;

let w: FakePushWorld;
beforeAll(async () => {
  w = await FakePushWorld.start(mode(), {
    sendDeadlineMs: SEND_DEADLINE_MS,
    attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
    maxRetries: MAX_RETRIES,
    retryBaseMs: 50,
  });
}, 120_000);
afterAll(() => w?.stop(), 60_000);

describe('sending push notifications', () => {
  test(
    'FCM: Android and web devices get title, body, data, priority, ttl and ' +
      'collapse key, through the OAuth token exchange',
    async () => {
      const p = await w.newPartner();
      const sa = w.fcmAccount('fields');
      const app = await w.newApp(p, { name: 'fcm', google_credentials: sa.base64 });
      const androidToken = deviceToken('fcm');
      const webToken = deviceToken('fcm');
      const android = await w.newDevice(p, app, 'android', androidToken);
      const web = await w.newDevice(p, app, 'web', webToken);
      const res = await w.send(p, {
        recipients: [android, web],
        title: 'Hello',
        body: 'World',
        data: { order: 42, kind: 'call', nested: { a: 1 } },
        priority: 'high',
        ttl: 3600,
        collapse_key: 'missed-call',
        android_click_action: 'OPEN_CALL',
        android_icon: 'ic_call',
        android_sound: 'ring.mp3',
        android_tag: 'calls',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ failure: 0, results: { [android]: 'success', [web]: 'success' }, success: 2 });
      expect(w.fcm.tokenGrants.get(sa.projectId)).toBeGreaterThanOrEqual(1);
      const got = w.fcm.forProject(sa.projectId);
      const a = got.find((r) => r.message.token === androidToken)?.message;
      expect(a).toEqual({
        token: androidToken,
        notification: { title: 'Hello', body: 'World' },
        data: { order: '42', kind: 'call', nested: '{"a":1}' },
        android: {
          priority: 'high',
          ttl: '3600s',
          collapse_key: 'missed-call',
          notification: { click_action: 'OPEN_CALL', icon: 'ic_call', sound: 'ring.mp3', tag: 'calls' },
        },
      });
      const webMsg = got.find((r) => r.message.token === webToken)?.message;
      expect(webMsg).toEqual({
        token: webToken,
        notification: { title: 'Hello', body: 'World' },
        data: { order: '42', kind: 'call', nested: '{"a":1}' },
        webpush: { headers: { TTL: '3600', Urgency: 'high', Topic: 'missed-call' } },
      });
    },
  );

  test(
    'APNs token auth: each environment goes to its own server with topic, ' +
      'priority, expiration, collapse id, badge, sound and data',
    async () => {
      const p = await w.newPartner();
      const key = w.apnsKey();
      const app = await w.newApp(p, tokenApp(key, 'com.example.calls'));
      const prodToken = deviceToken('ios');
      const devToken = deviceToken('ios');
      const prod = await w.newDevice(p, app, 'ios', prodToken, 'production');
      const dev = await w.newDevice(p, app, 'ios', devToken, 'development');
      const before = Math.floor(Date.now() / 1000);
      const res = await w.send(p, {
        recipients: [prod, dev],
        title: 'Incoming',
        body: 'Alice is calling',
        data: { call_id: 'c-1' },
        priority: 'normal',
        ttl: 120,
        ios_badge: 7,
        ios_sound: 'ring.caf',
        ios_category: 'CALL',
        ios_collapse_id: 'call-c-1',
        ios_mutable_content: true,
      });
      expect(res.body).toEqual({ failure: 0, results: { [prod]: 'success', [dev]: 'success' }, success: 2 });
      const p1 = w.apnsProd.received.find((r) => r.token === prodToken);
      const d1 = w.apnsDev.received.find((r) => r.token === devToken);
      expect(w.apnsProd.received.some((r) => r.token === devToken)).toBe(false);
      expect(w.apnsDev.received.some((r) => r.token === prodToken)).toBe(false);
      for (const r of [p1, d1]) {
        expect(r).toMatchObject({
          topic: 'com.example.calls',
          priority: '5',
          collapseId: 'call-c-1',
          pushType: 'alert',
          auth: { kind: 'token', keyId: key.keyId, teamId: key.teamId },
          payload: {
            call_id: 'c-1',
            aps: {
              alert: { title: 'Incoming', body: 'Alice is calling' },
              badge: 7,
              sound: 'ring.caf',
              category: 'CALL',
              'mutable-content': 1,
            },
          },
        });
        const expiration = Number(r?.expiration);
        expect(expiration).toBeGreaterThanOrEqual(before + 120);
        expect(expiration).toBeLessThanOrEqual(before + 125);
      }
      expect(p1?.environment).toBe('production');
      expect(d1?.environment).toBe('development');
    },
  );

  test('APNs certificate auth: an old RC2 .p12 is converted and presented as the client certificate', async () => {
    const p = await w.newPartner();
    const cert = fakeApnsP12({ password: 'cert-pw', bundleId: 'com.example.cert', legacy: true });
    const app = await w.newApp(p, { apns_p12: cert.base64, apns_p12_password: 'cert-pw' });
    const token = deviceToken('ios');
    const dev = await w.newDevice(p, app, 'ios', token, 'development');
    const res = await w.send(p, { recipients: [dev], title: 'T', ios_content_available: true });
    expect(res.body.results[dev]).toBe('success');
    const r = w.apnsDev.received.find((x) => x.token === token);
    expect(r?.auth).toMatchObject({ kind: 'certificate', sandbox: true });
    expect((r?.auth as { subject: string }).subject).toContain('com.example.cert');
    expect(r?.topic).toBeUndefined(); // certificate auth: APNs takes the topic from the certificate
    expect(r?.payload).toEqual({ aps: { alert: { title: 'T' }, 'content-available': 1 } });
  });

  test(
    'credentials that do not work for an environment fail only their ' +
      'recipients (provider_error), never the request',
    async () => {
      const p = await w.newPartner();
      const noSandbox = fakeApnsP12({ password: 'pw', bundleId: 'com.example.nosandbox', sandbox: false });
      const broken = await w.newApp(p, { apns_p12: noSandbox.base64, apns_p12_password: 'pw' });
      const healthy = await w.newApp(p, tokenApp(w.apnsKey(), 'com.example.healthy'));
      const bad = await w.newDevice(p, broken, 'ios', deviceToken('ios'), 'development');
      const good = await w.newDevice(p, healthy, 'ios', deviceToken('ios'), 'development');
      const res = await w.send(p, { recipients: [bad, good], title: 'x' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ failure: 1, results: { [bad]: 'provider_error', [good]: 'success' }, success: 1 });
    },
  );

  test('only recipients: an empty message that still counts as a success, on every platform', async () => {
    const p = await w.newPartner();
    const sa = w.fcmAccount('empty');
    const key = w.apnsKey();
    const app = await w.newApp(p, { google_credentials: sa.base64, ...tokenApp(key, 'com.example.empty') });
    const [aTok, iTok] = [deviceToken('fcm'), deviceToken('ios')];
    const android = await w.newDevice(p, app, 'android', aTok);
    const ios = await w.newDevice(p, app, 'ios', iTok);
    const res = await w.send(p, { recipients: [android, ios] });
    expect(res.body).toEqual({ failure: 0, results: { [android]: 'success', [ios]: 'success' }, success: 2 });
    expect(w.fcm.forProject(sa.projectId).map((r) => r.message)).toEqual([{ token: aTok }]);
    const r = w.apnsProd.received.find((x) => x.token === iTok);
    expect(r).toMatchObject({ payload: { aps: {} }, pushType: 'background', priority: '5' });
    expect(r?.expiration).toBeUndefined();
  });

  test('dead and malformed tokens: unregistered and invalid_token, from FCM and from APNs', async () => {
    const p = await w.newPartner();
    const sa = w.fcmAccount('dead');
    const key = w.apnsKey();
    const app = await w.newApp(p, { google_credentials: sa.base64, ...tokenApp(key, 'com.example.dead') });
    const tokens = {
      fcmGone: deviceToken('fcm'),
      fcmBad: deviceToken('fcm'),
      fcmOk: deviceToken('fcm'),
      iosGone: deviceToken('ios'),
      iosBad: deviceToken('ios'),
      iosOk: deviceToken('ios'),
    };
    w.fcm.answerToken(tokens.fcmGone, 'unregistered');
    w.fcm.answerToken(tokens.fcmBad, 'invalid');
    w.apnsProd.answerToken(tokens.iosGone, 'unregistered');
    w.apnsProd.answerToken(tokens.iosBad, 'bad-device-token');
    const d = {
      fcmGone: await w.newDevice(p, app, 'android', tokens.fcmGone),
      fcmBad: await w.newDevice(p, app, 'web', tokens.fcmBad),
      fcmOk: await w.newDevice(p, app, 'android', tokens.fcmOk),
      iosGone: await w.newDevice(p, app, 'ios', tokens.iosGone),
      iosBad: await w.newDevice(p, app, 'ios', tokens.iosBad),
      iosOk: await w.newDevice(p, app, 'ios', tokens.iosOk),
    };
    const res = await w.send(p, { recipients: Object.values(d), title: 'x' });
    expect(res.body).toEqual({
      failure: 4,
      success: 2,
      results: {
        [d.fcmGone]: 'unregistered',
        [d.fcmBad]: 'invalid_token',
        [d.fcmOk]: 'success',
        [d.iosGone]: 'unregistered',
        [d.iosBad]: 'invalid_token',
        [d.iosOk]: 'success',
      },
    });
    // Final answers are not retried.
    expect(w.fcm.received.filter((r) => r.message.token === tokens.fcmGone)).toHaveLength(1);
    expect(w.apnsProd.received.filter((r) => r.token === tokens.iosGone)).toHaveLength(1);
  });

  test(
    "not_found for unknown and other partners' devices; no_credentials " + 'when the application lacks the platform',
    async () => {
      const p = await w.newPartner();
      const q = await w.newPartner();
      const sa = w.fcmAccount('nocred');
      const fcmOnly = await w.newApp(p, { google_credentials: sa.base64 });
      const android = await w.newDevice(p, fcmOnly, 'android', deviceToken('fcm'));
      const ios = await w.newDevice(p, fcmOnly, 'ios', deviceToken('ios'));
      const bare = await w.newApp(p, {});
      const web = await w.newDevice(p, bare, 'web', deviceToken('fcm'));
      const theirs = await w.newDevice(
        q,
        await w.newApp(q, { google_credentials: w.fcmAccount('theirs').base64 }),
        'android',
        deviceToken('fcm'),
      );
      const unknown = '00000000-0000-4000-8000-00000000beef';
      const res = await w.send(p, {
        recipients: [android, ios, web, theirs, unknown, 'not-a-sid', android],
        body: 'b',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        failure: 5,
        success: 1,
        results: {
          [android]: 'success',
          [ios]: 'no_credentials',
          [web]: 'no_credentials',
          [theirs]: 'not_found',
          [unknown]: 'not_found',
          'not-a-sid': 'not_found',
        },
      });
    },
  );

  test('bad send requests are 400 naming the field', async () => {
    const p = await w.newPartner();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'recipients'],
      [{ recipients: [] }, 'recipients'],
      [{ recipients: Array.from({ length: 101 }, (_, i) => `r${i}`) }, 'recipients'],
      [{ recipients: ['x'], priority: 'urgent' }, 'priority'],
      [{ recipients: ['x'], ttl: -1 }, 'ttl'],
      [{ recipients: ['x'], ios_badge: 'many' }, 'ios_badge'],
      [{ recipients: ['x'], data: { from: 'me' } }, 'data.from'],
      [{ recipients: ['x'], data: { 'google.x': 1 } }, 'data.google.x'],
      [{ recipients: ['x'], sound: 'default' }, 'sound'],
    ];
    for (const [body, field] of cases) {
      const res = await w.send(p, body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const ok = await w.send(p, { recipients: Array.from({ length: 100 }, (_, i) => `r${i}`), ttl: '30' });
    expect(ok.status).toBe(200);
    expect(ok.body.failure).toBe(100);
  });

  test('a provider outage gives provider_error for its recipients only, after retries with backoff', async () => {
    const p = await w.newPartner();
    const down = w.fcmAccount('down');
    const healthy = w.fcmAccount('healthy');
    const key = w.apnsKey();
    w.fcm.answerProject(down.projectId, { kind: 'down' });
    w.apnsProd.answerTopic('com.example.down', { kind: 'down' });
    const downApp = await w.newApp(p, { google_credentials: down.base64, ...tokenApp(key, 'com.example.down') });
    const okApp = await w.newApp(p, { google_credentials: healthy.base64, ...tokenApp(key, 'com.example.up') });
    const [downFcmTok, downIosTok] = [deviceToken('fcm'), deviceToken('ios')];
    const d = {
      downFcm: await w.newDevice(p, downApp, 'android', downFcmTok),
      downIos: await w.newDevice(p, downApp, 'ios', downIosTok),
      upFcm: await w.newDevice(p, okApp, 'web', deviceToken('fcm')),
      upIos: await w.newDevice(p, okApp, 'ios', deviceToken('ios')),
    };
    const res = await w.send(p, { recipients: Object.values(d), title: 'outage' });
    expect(res.body).toEqual({
      failure: 2,
      success: 2,
      results: {
        [d.downFcm]: 'provider_error',
        [d.downIos]: 'provider_error',
        [d.upFcm]: 'success',
        [d.upIos]: 'success',
      },
    });
    expect(w.fcm.received.filter((r) => r.message.token === downFcmTok)).toHaveLength(1 + MAX_RETRIES);
    expect(w.apnsProd.received.filter((r) => r.token === downIosTok)).toHaveLength(1 + MAX_RETRIES);
    // Back up: the same recipients succeed.
    w.fcm.answerProject(down.projectId, null);
    w.apnsProd.answerTopic('com.example.down', null);
    const again = await w.send(p, { recipients: [d.downFcm, d.downIos], title: 'recovered' });
    expect(again.body).toEqual({ failure: 0, results: { [d.downFcm]: 'success', [d.downIos]: 'success' }, success: 2 });
  });

  test(
    "a slow provider does not hold up another partner's send; its own " + 'recipients time out as provider_error',
    async () => {
      const slowPartner = await w.newPartner();
      const fastPartner = await w.newPartner();
      const slowSa = w.fcmAccount('slow');
      const slowKey = w.apnsKey();
      const slowApp = await w.newApp(slowPartner, {
        google_credentials: slowSa.base64,
        ...tokenApp(slowKey, 'com.example.slow'),
      });
      const slowDevices = [
        await w.newDevice(slowPartner, slowApp, 'android', deviceToken('fcm')),
        await w.newDevice(slowPartner, slowApp, 'ios', deviceToken('ios')),
      ];
      const fastApp = await w.newApp(fastPartner, {
        google_credentials: w.fcmAccount('fast').base64,
        ...tokenApp(w.apnsKey(), 'com.example.fast'),
      });
      const fastDevices = [
        await w.newDevice(fastPartner, fastApp, 'android', deviceToken('fcm')),
        await w.newDevice(fastPartner, fastApp, 'ios', deviceToken('ios')),
      ];

      // Both partners' clients are open (OAuth tokens, TLS sessions) before the race, as for partners
      // that send: what is measured is whether the slow send holds the other one up, not how long a
      // first send's set-up takes on a loaded machine (seconds there).
      for (const [who, devices] of [
        [slowPartner, slowDevices],
        [fastPartner, fastDevices],
      ] as const)
        expect((await w.send(who, { recipients: devices, title: 'warm' })).body.success).toBe(2);
      w.fcm.answerProject(slowSa.projectId, { kind: 'slow', delayMs: 20_000 });
      w.apnsProd.answerTopic('com.example.slow', { kind: 'slow', delayMs: 20_000 });

      const slowStarted = Date.now();
      const slowSend = w
        .send(slowPartner, { recipients: slowDevices, title: 'slow' })
        .then((r) => ({ r, ms: Date.now() - slowStarted, at: Date.now() }));
      // Not a fixed sleep: the race starts once both providers hold the slow send's requests.
      await until('both providers to hold the slow send', ATTEMPT_TIMEOUT_MS, () =>
        w.fcm.held > 0 && w.apnsProd.held > 0 ? true : undefined,
      );
      const fastStarted = Date.now();
      const fast = await w.send(fastPartner, { recipients: fastDevices, title: 'fast' });
      const fastMs = Date.now() - fastStarted;
      expect(fast.body).toEqual({
        failure: 0,
        results: Object.fromEntries(fastDevices.map((s) => [s, 'success'])),
        success: 2,
      });
      expect(fastMs).toBeLessThan(ATTEMPT_TIMEOUT_MS);

      const slow = await slowSend;
      expect(fastStarted + fastMs).toBeLessThan(slow.at);
      expect(slow.r.body).toEqual({
        failure: 2,
        results: Object.fromEntries(slowDevices.map((s) => [s, 'provider_error'])),
        success: 0,
      });
      expect(slow.ms).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 100);
      expect(slow.ms).toBeLessThan(SEND_DEADLINE_MS + 2000);
      w.fcm.answerProject(slowSa.projectId, null);
      w.apnsProd.answerTopic('com.example.slow', null);
    },
  );

  test(
    'clients are kept open and reused; new credentials replace them; ' + 'deleting the application removes its devices',
    async () => {
      const p = await w.newPartner();
      const key1 = w.apnsKey();
      const sa1 = w.fcmAccount('rotate1');
      const app = await w.newApp(p, { google_credentials: sa1.base64, ...tokenApp(key1, 'com.example.rotate') });
      const iosToken = deviceToken('ios');
      const ios = await w.newDevice(p, app, 'ios', iosToken, 'development');
      const android = await w.newDevice(p, app, 'android', deviceToken('fcm'));
      const connectionsBefore = w.apnsDev.connections;
      for (let i = 0; i < 3; i++)
        expect((await w.send(p, { recipients: [ios, android], title: `n${i}` })).body.success).toBe(2);
      expect(w.apnsDev.connections - connectionsBefore).toBe(1);
      expect(w.fcm.tokenGrants.get(sa1.projectId)).toBe(1);

      const key2 = w.apnsKey();
      const sa2 = w.fcmAccount('rotate2');
      const patched = await w
        .api()
        .patch(`/core/v2/push/applications/${app}`)
        .set(...p.auth)
        .send({ google_credentials: sa2.base64, apns_p8: key2.p8, apns_key_id: key2.keyId, apns_team_id: key2.teamId });
      expect(patched.status).toBe(200);
      expect((await w.send(p, { recipients: [ios, android], title: 'rotated' })).body.success).toBe(2);
      const last = w.apnsDev.received.filter((r) => r.token === iosToken).pop();
      expect(last?.auth).toMatchObject({ kind: 'token', keyId: key2.keyId });
      expect(last?.payload.aps.alert.title).toBe('rotated');
      expect(w.fcm.forProject(sa2.projectId).map((r) => r.message.notification.title)).toEqual(['rotated']);
      expect(w.apnsDev.connections - connectionsBefore).toBe(2);

      expect(
        (
          await w
            .api()
            .delete(`/core/v2/push/applications/${app}`)
            .set(...p.auth)
        ).status,
      ).toBe(204);
      const after = await w.send(p, { recipients: [ios, android] });
      expect(after.body).toEqual({ failure: 2, results: { [ios]: 'not_found', [android]: 'not_found' }, success: 0 });
    },
  );

  test('100 recipients across platforms in one request', async () => {
    const p = await w.newPartner();
    const sa = w.fcmAccount('hundred');
    const app = await w.newApp(p, { google_credentials: sa.base64, ...tokenApp(w.apnsKey(), 'com.example.hundred') });
    const devices: string[] = [];
    for (let i = 0; i < 100; i++)
      devices.push(
        await w.newDevice(
          p,
          app,
          (['android', 'web', 'ios'] as const)[i % 3],
          deviceToken(i % 3 === 2 ? 'ios' : 'fcm'),
        ),
      );
    const res = await w.send(p, { recipients: devices, title: 'bulk' });
    expect(res.body.success).toBe(100);
    expect(Object.keys(res.body.results)).toHaveLength(100);
    expect(w.fcm.forProject(sa.projectId)).toHaveLength(67);
  }, 60_000);
});
