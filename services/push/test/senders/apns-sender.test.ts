import fs from 'node:fs';
import { Notification, Provider } from '@parse/node-apn';
import { createLogger } from '@patchbay/platform';
import { openP12, readP8 } from '../../src/domain/credentials';
import { apnsRequest } from '../../src/domain/apns-request';
import { toPushMessage } from '../../src/domain/push-message';
import { ApnsSender, type ApnsSenderOptions } from '../../src/senders/apns-sender';
import { APNS_TOKEN_MIN_AGE_MS, APNS_TOKEN_REFRESH_MS, ApnsProviderToken } from '../../src/senders/apns-token';
import { InlineSendRunner } from '../../src/senders/send-runner';
import type { DeviceTarget } from '../../src/senders/sender';
// Test-time keys, certificates and the HTTP/2 fake APNs shared with the API tests.
import { FakeApns } from '../../../../tests/support/fake-apns';
import { fakeApnsP12, fakeApnsTokenKey, fakeServerTls, type FakeTls } from '../../../../tests/support/fake-credentials';

/**
 * ApnsSender, Patchbay's own APNs client, on the service's thread (one lane) against the fake APNs
 * speaking HTTP/2 over TLS: provider tokens reused and refreshed on time, a client certificate
 * presented to a fake that requires one, one session kept across sends, and requests that are
 * what @parse/node-apn sent.
 */
const log = createLogger({ name: 'test', level: 'silent' });
const message = (title: string) =>
  toPushMessage({
    recipients: ['x'],
    title,
    body: 'b',
    priority: 'high',
    ttl: 60,
    collapse_key: 'ck',
    data: { k: 'v' },
  });
const ios = (n: number, prefix = 'a'): DeviceTarget[] =>
  Array.from({ length: n }, (_, i) => ({
    device_sid: `d${i}`,
    token: `${prefix}${i.toString(16).padStart(63, '0')}`,
    type: 'ios',
    environment: 'development',
  }));
const deadline = () => Date.now() + 20_000;

let tls: FakeTls;
let fake: FakeApns;
const key = fakeApnsTokenKey();
const senders: Array<{ close(): Promise<void> }> = [];

function sender(opts: Partial<ApnsSenderOptions> & Pick<ApnsSenderOptions, 'auth'>): ApnsSender {
  const [host, port] = fake.endpoint.split(':');
  const s = new ApnsSender({
    applicationSid: 'app',
    environment: 'development',
    topic: 'com.example.unit',
    endpoint: { host, port: Number(port) },
    ca: tls.cert,
    insecure: false,
    runner: new InlineSendRunner(undefined),
    attemptTimeoutMs: 5000,
    retry: { maxRetries: 0, baseMs: 10 },
    log,
    ...opts,
  });
  senders.push(s);
  return s;
}
const tokenAuth = { kind: 'token' as const, key: readP8(key.p8), keyId: key.keyId, teamId: key.teamId };

beforeAll(async () => {
  tls = fakeServerTls();
  fake = await FakeApns.start({ environment: 'development', tls });
  fake.trustKey(key);
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.close()));
  fake.received.length = 0;
});
afterAll(async () => {
  await fake?.stop();
  fs.rmSync(tls.dir, { recursive: true, force: true });
});

describe('provider token (p8)', () => {
  test('one token for every request until the refresh time, then a new one', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const s = sender({ auth: tokenAuth, now: () => now });
    for (let i = 0; i < 3; i++) {
      const r = await s.send(message(`n${i}`), ios(2), deadline());
      expect([...r.values()]).toEqual(['success', 'success']);
      now += 10 * 60_000;
    }
    const first = fake.received.map((r) => r.authorization);
    expect(new Set(first).size).toBe(1);
    expect(fake.received.every((r) => r.auth.kind === 'token')).toBe(true);
    const [head, claims] = (first[0] ?? '').replace(/^bearer /, '').split('.');
    expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({ alg: 'ES256', typ: 'JWT', kid: key.keyId });
    expect(JSON.parse(Buffer.from(claims, 'base64url').toString())).toEqual({
      iat: Date.parse('2030-01-01T00:00:00Z') / 1000,
      iss: key.teamId,
    });
    now = Date.parse('2030-01-01T00:00:00Z') + APNS_TOKEN_REFRESH_MS;
    fake.received.length = 0;
    await s.send(message('later'), ios(2), deadline());
    const later = fake.received.map((r) => r.authorization);
    expect(new Set(later).size).toBe(1);
    expect(later[0]).not.toBe(first[0]);
    expect(fake.received.every((r) => r.auth.kind === 'token')).toBe(true);
  });

  test('a token APNs called expired is replaced, but never within 20 minutes of signing', () => {
    let now = 1_000_000;
    const token = new ApnsProviderToken(tokenAuth, () => now);
    const a = token.authorization();
    token.expired(a);
    expect(token.authorization()).toBe(a);
    now += APNS_TOKEN_MIN_AGE_MS;
    token.expired(a);
    expect(token.authorization()).not.toBe(a);
  });
});

describe('client certificate (p12)', () => {
  let strict: FakeApns;
  let cert: { certPem: string; keyPem: string };
  beforeAll(async () => {
    cert = openP12(fakeApnsP12({ password: 'pw', bundleId: 'com.example.p12' }).base64, 'pw');
    // The client certificate is self-signed: it is its own CA.
    strict = await FakeApns.start({ environment: 'development', tls, clientCa: cert.certPem });
    strict.trustKey(key);
  });
  afterAll(() => strict?.stop());

  const at = (f: FakeApns) => {
    const [host, port] = f.endpoint.split(':');
    return { host, port: Number(port) };
  };

  test('a fake that requires a client certificate accepts the sender’s, and refuses a token-only client', async () => {
    const withCert = sender({
      auth: { kind: 'certificate', cert: cert.certPem, key: cert.keyPem },
      topic: undefined,
      endpoint: at(strict),
    });
    const r = await withCert.send(message('cert'), ios(3), deadline());
    expect([...r.values()]).toEqual(['success', 'success', 'success']);
    expect(strict.received).toHaveLength(3);
    expect(strict.received[0].auth).toMatchObject({ kind: 'certificate', sandbox: true });
    expect(strict.received[0].authorization).toBeUndefined();
    expect(strict.received[0].topic).toBeUndefined();

    const refusedBefore = strict.refused;
    const tokenOnly = sender({ auth: tokenAuth, endpoint: at(strict) });
    const t = await tokenOnly.send(message('token'), ios(1, 'b'), deadline());
    expect([...t.values()]).toEqual(['provider_error']);
    expect(strict.refused).toBeGreaterThan(refusedBefore);
    expect(strict.received).toHaveLength(3);
  });

  test('a certificate without the sandbox extension is refused before any request, as node-apn did', () => {
    const noSandbox = openP12(fakeApnsP12({ password: 'pw', bundleId: 'com.example.x', sandbox: false }).base64, 'pw');
    expect(() => sender({ auth: { kind: 'certificate', cert: noSandbox.certPem, key: noSandbox.keyPem } })).toThrow(
      /does not support configured environment/,
    );
  });
});

describe('the HTTP/2 session', () => {
  test('one connection per sender, kept across sends', async () => {
    const before = fake.connections;
    const s = sender({ auth: tokenAuth });
    for (let i = 0; i < 8; i++) await s.send(message(`s${i}`), ios(5), deadline());
    expect(fake.received).toHaveLength(40);
    expect(fake.connections - before).toBe(1);
  });

  test('requests are the ones @parse/node-apn sent: path, headers in order, body', async () => {
    const m = message('same');
    const tokens = ios(1);
    const s = sender({ auth: tokenAuth, now: () => Date.now() });
    await s.send(m, tokens, deadline());
    const ours = fake.received.splice(0);

    const r = apnsRequest(m, 'com.example.unit');
    const [host, port] = fake.endpoint.split(':');
    const provider = new Provider({
      token: { key: key.p8, keyId: key.keyId, teamId: key.teamId },
      address: host,
      port: Number(port),
      ca: [tls.cert],
      connectionRetryLimit: 0,
    });
    const note = new Notification();
    note.rawPayload = r.payload;
    note.pushType = r.pushType;
    note.priority = r.priority;
    if (r.expiry !== undefined) note.expiry = r.expiry;
    if (r.collapseId !== undefined) note.collapseId = r.collapseId;
    if (r.topic !== undefined) note.topic = r.topic;
    try {
      await provider.send(note, [tokens[0].token]);
    } finally {
      await provider.shutdown();
    }
    const theirs = fake.received.splice(0);
    // The provider token and apns-expiration (epoch seconds, from the clock) may differ by a second.
    const comparable = ({ at: _at, authorization: _a, expiration: _e, ...rest }: (typeof ours)[number]) => rest;
    expect(ours.map(comparable)).toEqual(theirs.map(comparable));
    expect(Math.abs(Number(ours[0].expiration) - Number(theirs[0].expiration))).toBeLessThanOrEqual(1);
    expect(ours[0].headerNames).toEqual(theirs[0].headerNames);
    expect(ours[0].body).toBe(theirs[0].body);
    expect(ours[0].expiration).toBeDefined();
    expect(ours[0].collapseId).toBe('ck');
  });
});
