import { ConfigError } from '@patchbay/platform';
import { loadPushSettings } from '../src/config';

describe('push configuration', () => {
  test('defaults: Google and Apple hosts, a send deadline 2 s inside the bus timeout', () => {
    const s = loadPushSettings({ BUS_TIMEOUT_MS: '9000' });
    expect(s.fcmEndpoint).toBeUndefined();
    expect(s.apns).toEqual({ production: undefined, development: undefined, ca: undefined, insecure: false });
    expect(s.sendDeadlineMs).toBe(7000);
    expect(s.retry).toEqual({ maxRetries: 3, baseMs: 200 });
  });

  test('local endpoints: the sandbox defaults to the production endpoint', () => {
    const s = loadPushSettings({ FCM_ENDPOINT: '127.0.0.1:9001', APNS_ENDPOINT: 'localhost:9002', APNS_INSECURE: 'true', PUSH_SEND_DEADLINE_MS: '1500' });
    expect(s.fcmEndpoint).toEqual({ host: '127.0.0.1', port: 9001 });
    expect(s.apns).toMatchObject({ production: { host: 'localhost', port: 9002 }, development: { host: 'localhost', port: 9002 }, insecure: true });
    expect(s.sendDeadlineMs).toBe(1500);
  });

  test('bad values stop start-up naming the key', () => {
    expect(() => loadPushSettings({ FCM_ENDPOINT: 'http://x' })).toThrow(/FCM_ENDPOINT/);
    expect(() => loadPushSettings({ APNS_INSECURE: 'true' })).toThrow(ConfigError);
    expect(() => loadPushSettings({ APNS_ENDPOINT: '127.0.0.1:1', APNS_CA: '/no/such/ca.pem' })).toThrow(/APNS_CA/);
  });
});
