import { mode } from '../harness/api';
import { FakePushWorld, deviceToken, tokenApp } from '../support/fake-push-world';

/**
 * FCM's transport, end to end: Patchbay's FCM sender against a fake FCM speaking HTTP/2 over TLS
 * with a certificate made at test time for Google's host names (trusted through FCM_CA, checked as
 * in production), with three send workers. What the fake saw: HTTP/2 on a few long-lived
 * connections per application; what the caller got: the right result for every device, 429s
 * waited out as FCM asked.
 */
const WORKERS = 3;

let w: FakePushWorld;
beforeAll(async () => {
  w = await FakePushWorld.start(mode(), {
    sendDeadlineMs: 8000,
    attemptTimeoutMs: 3000,
    maxRetries: 3,
    retryBaseMs: 50,
    sendWorkers: WORKERS,
  });
}, 120_000);
afterAll(() => w?.stop(), 60_000);

async function androidDevices(p: Awaited<ReturnType<FakePushWorld['newPartner']>>, app: string, n: number) {
  const devices: Array<{ sid: string; token: string }> = [];
  for (let i = 0; i < n; i++) {
    const token = deviceToken('fcm');
    devices.push({ sid: await w.newDevice(p, app, i % 4 === 3 ? 'web' : 'android', token), token });
  }
  return devices;
}

describe('FCM over HTTP/2', () => {
  test('sessions are kept open and reused: a few connections per application, not one per request', async () => {
    const p = await w.newPartner();
    const sa = w.fcmAccount('reuse');
    const app = await w.newApp(p, { google_credentials: sa.base64 });
    const [a, b] = await androidDevices(p, app, 2);
    for (let i = 0; i < 12; i++) {
      const res = await w.send(p, { recipients: [a.sid, b.sid], title: `n${i}` });
      expect(res.body).toEqual({ failure: 0, results: { [a.sid]: 'success', [b.sid]: 'success' }, success: 2 });
    }
    const got = w.fcm.forProject(sa.projectId);
    expect(got).toHaveLength(24);
    expect(got.every((r) => r.httpVersion === '2')).toBe(true);
    // One session per send worker at most, however many requests; and one OAuth token.
    expect(w.fcm.connectionsFor(sa.projectId)).toBeLessThanOrEqual(WORKERS);
    expect(w.fcm.tokenGrants.get(sa.projectId)).toBe(1);
  }, 60_000);

  test('fan-out over the send workers: dead, malformed and refused tokens each land on their own device', async () => {
    const p = await w.newPartner();
    const sa = w.fcmAccount('fan-out');
    const app = await w.newApp(p, { google_credentials: sa.base64 });
    const devices = await androidDevices(p, app, 100);
    const expected: Record<string, string> = {};
    devices.forEach((d, i) => {
      if (i % 9 === 4) w.fcm.answerToken(d.token, 'unregistered');
      else if (i % 13 === 6) w.fcm.answerToken(d.token, 'invalid');
      else if (i === 77) w.fcm.answerToken(d.token, 'sender-mismatch');
      expected[d.sid] =
        i % 9 === 4 ? 'unregistered' : i % 13 === 6 ? 'invalid_token' : i === 77 ? 'provider_error' : 'success';
    });
    const res = await w.send(p, { recipients: devices.map((d) => d.sid), title: 'fan-out' });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual(expected);
    const success = Object.values(expected).filter((r) => r === 'success').length;
    expect(res.body).toMatchObject({ success, failure: 100 - success });
    // 75 Android devices in three slices and 25 web devices in one, on the lanes in turn: several connections.
    expect(w.fcm.connectionsFor(sa.projectId)).toBeGreaterThan(1);
    expect(w.fcm.connectionsFor(sa.projectId)).toBeLessThanOrEqual(WORKERS);
  }, 120_000);

  test('429 QUOTA_EXCEEDED with Retry-After: the retry comes no sooner than asked, then succeeds', async () => {
    const p = await w.newPartner();
    const sa = w.fcmAccount('quota');
    const app = await w.newApp(p, { google_credentials: sa.base64 });
    const [d] = await androidDevices(p, app, 1);
    w.fcm.answerProject(sa.projectId, { kind: 'quota', retryAfterSeconds: 2, times: 1 });
    const res = await w.send(p, { recipients: [d.sid], title: 'quota' });
    expect(res.body).toEqual({ failure: 0, results: { [d.sid]: 'success' }, success: 1 });
    const got = w.fcm.forProject(sa.projectId);
    expect(got.map((r) => r.status)).toEqual([429, 200]);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(2000);
  }, 60_000);

  test('a Retry-After past the send deadline is not waited for: provider_error, one attempt', async () => {
    const p = await w.newPartner();
    const sa = w.fcmAccount('quota-long');
    const app = await w.newApp(p, { google_credentials: sa.base64 });
    const [d] = await androidDevices(p, app, 1);
    w.fcm.answerProject(sa.projectId, { kind: 'quota', retryAfterSeconds: 60, times: 5 });
    const res = await w.send(p, { recipients: [d.sid], title: 'quota' });
    expect(res.body).toEqual({ failure: 1, results: { [d.sid]: 'provider_error' }, success: 0 });
    expect(w.fcm.forProject(sa.projectId).map((r) => r.status)).toEqual([429]);
    w.fcm.answerProject(sa.projectId, null);
  }, 60_000);

  test('APNs on the send workers too: a large send spread over them, every device its own answer', async () => {
    const p = await w.newPartner();
    const app = await w.newApp(p, tokenApp(w.apnsKey(), 'com.example.fan-out'));
    const connectionsBefore = w.apnsProd.connections;
    const devices: Array<{ sid: string; token: string }> = [];
    for (let i = 0; i < 100; i++) {
      const token = deviceToken('ios');
      devices.push({ sid: await w.newDevice(p, app, 'ios', token), token });
    }
    const expected: Record<string, string> = {};
    devices.forEach((d, i) => {
      if (i % 8 === 2) w.apnsProd.answerToken(d.token, 'unregistered');
      else if (i % 10 === 7) w.apnsProd.answerToken(d.token, 'bad-device-token');
      expected[d.sid] = i % 8 === 2 ? 'unregistered' : i % 10 === 7 ? 'invalid_token' : 'success';
    });
    const res = await w.send(p, { recipients: devices.map((d) => d.sid), title: 'fan-out' });
    expect(res.body.results).toEqual(expected);
    // 100 devices in slices of at least 25 over the three workers: one connection each.
    expect(w.apnsProd.connections - connectionsBefore).toBe(WORKERS);
  }, 120_000);
});
