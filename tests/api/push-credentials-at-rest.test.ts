import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mode } from '../harness/api';
import { TEST_CREDENTIALS_KEY } from '../harness/patchbay';
import { rewriteStored, serviceLocation, storedTexts, type StoredText } from '../harness/stores';
import { fakeApnsP12, type FakeApnsTokenKey, type FakeServiceAccount } from '../support/fake-credentials';
import { FakePushWorld, deviceToken, tokenApp, type PushTestPartner } from '../support/fake-push-world';

/**
 * Push credentials are encrypted at rest: what the push service stores — files of its data
 * directory (embedded store) or documents of its MongoDB database — holds no private key and no
 * password, and sending still works: after a crash and restart with the same key, for values stored
 * in plaintext before encryption existed (the start-up migration seals them), and, when the key is
 * replaced by an unknown one, the affected recipients get `no_credentials` instead of an error.
 * One instance of its own.
 */
let w: FakePushWorld;
beforeAll(async () => {
  w = await FakePushWorld.start(mode(), {
    sendDeadlineMs: 4000,
    attemptTimeoutMs: 2500,
    maxRetries: 1,
    retryBaseMs: 50,
  });
}, 120_000);
afterAll(() => w?.stop(), 60_000);

const V2 = '/core/v2';

/**
 * Where the credentials key is kept: a file the push service generates in its data directory
 * (embedded store), or PUSH_CREDENTIALS_KEY, which MongoDB requires (the harness sets a test key).
 */
interface KeyAtRest {
  current(): string;
  /** The key is not readable where it is kept: the file is 0600; an environment key is stored nowhere. */
  expectProtected(): Promise<void>;
  /** While the instance is down: an unknown key replaces it (the environment change, if any). */
  replace(): Record<string, string> | undefined;
}
const keyFile = () => path.join(w.pb.dataDir, 'push', 'credentials.key');
let replacedKey: string | undefined;
const keyAtRest: KeyAtRest = process.env.MONGODB_URL
  ? {
      current: () => replacedKey ?? process.env.PUSH_CREDENTIALS_KEY ?? TEST_CREDENTIALS_KEY,
      expectProtected: async () => {
        for (const r of await storedTexts(w.pb))
          expect({ where: r.where, holdsKey: r.text.includes(keyAtRest.current()) }).toEqual({
            where: r.where,
            holdsKey: false,
          });
      },
      replace: () => ({ PUSH_CREDENTIALS_KEY: (replacedKey = randomBytes(32).toString('base64')) }),
    }
  : {
      current: () => fs.readFileSync(keyFile(), 'utf8'),
      expectProtected: async () => {
        expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
      },
      replace: () => {
        fs.writeFileSync(keyFile(), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
        return undefined;
      },
    };

const kidOf = (base64Key: string) =>
  createHash('sha256').update(Buffer.from(base64Key.trim(), 'base64')).digest('hex').slice(0, 8);
/** The middle line of a PEM block: key material, not its armour. */
const pemBody = (pem: string) => {
  const lines = pem.trim().split('\n');
  return lines[Math.floor(lines.length / 2)];
};

/** The application's stored record: the one record holding its SID in an application (devices name it too). */
async function storedApplication(applicationSid: string): Promise<StoredText> {
  const hits = (await storedTexts(w.pb)).filter(
    (r) => r.text.includes(applicationSid) && r.text.includes('"credentials_revision"'),
  );
  expect(hits).toHaveLength(1);
  return hits[0];
}

async function expectNoSecretStored(secrets: string[]): Promise<void> {
  for (const r of await storedTexts(w.pb))
    for (const s of secrets)
      expect({ where: r.where, leaks: r.text.includes(s) }).toEqual({ where: r.where, leaks: false });
}

describe('push credentials at rest', () => {
  let p: PushTestPartner;
  let sa: FakeServiceAccount;
  let key: FakeApnsTokenKey;
  let cert: { base64: string };
  const password = `p12-password-${randomUUID()}`;
  const apps = { both: '', cert: '' };
  const devices = { android: '', iosToken: '', iosCert: '' };
  let secrets: string[];
  const sendAll = () => w.send(p, { recipients: Object.values(devices), title: 'at rest' });

  test('the stored data holds no private key or password, and sending works', async () => {
    p = await w.newPartner();
    sa = w.fcmAccount('at-rest');
    key = w.apnsKey();
    cert = fakeApnsP12({ password, bundleId: 'com.example.atrest' });
    apps.both = await w.newApp(p, {
      name: 'both',
      google_credentials: sa.base64,
      ...tokenApp(key, 'com.example.atrest'),
    });
    apps.cert = await w.newApp(p, { name: 'cert', apns_p12: cert.base64, apns_p12_password: password });
    devices.android = await w.newDevice(p, apps.both, 'android', deviceToken('fcm'));
    devices.iosToken = await w.newDevice(p, apps.both, 'ios', deviceToken('ios'), 'production');
    devices.iosCert = await w.newDevice(p, apps.cert, 'ios', deviceToken('ios'), 'development');
    secrets = [
      password,
      sa.base64.slice(100, 164),
      pemBody(sa.json.private_key),
      pemBody(key.p8),
      cert.base64.slice(200, 264),
    ];

    const stored = await storedApplication(apps.both);
    expect(stored.where.startsWith(serviceLocation(w.pb, 'push'))).toBe(true);
    expect(stored.text).toMatch(
      /"google_credentials":\{"v":1,"kid":"[0-9a-f]{8}","iv":"[^"]+","tag":"[^"]+","data":"[^"]+"\}/,
    );
    await expectNoSecretStored(secrets);
    await keyAtRest.expectProtected();

    const res = await sendAll();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      failure: 0,
      results: { [devices.android]: 'success', [devices.iosToken]: 'success', [devices.iosCert]: 'success' },
      success: 3,
    });
    const read = await w
      .api()
      .get(`${V2}/push/applications/${apps.cert}`)
      .set(...p.auth);
    expect(read.body).toMatchObject({ apns_p12: '********', apns_p12_password: '********' });
  });

  test(
    'after a crash and restart with the same key, and for credentials ' +
      'stored in plaintext before encryption, sending still works',
    async () => {
      const keyBefore = keyAtRest.current();
      // As data written before credentials were encrypted would have it: plain strings.
      const stored = await storedApplication(apps.cert);
      await w.restart(() =>
        rewriteStored(
          w.pb,
          stored,
          (doc) => doc.application_sid === apps.cert,
          (doc) => {
            doc.apns_p12 = cert.base64;
            doc.apns_p12_password = password;
          },
        ),
      );
      expect(keyAtRest.current()).toBe(keyBefore);
      const res = await sendAll();
      expect(res.body).toEqual({
        failure: 0,
        results: { [devices.android]: 'success', [devices.iosToken]: 'success', [devices.iosCert]: 'success' },
        success: 3,
      });
    },
    120_000,
  );

  test(
    'with an unknown key: no_credentials (not a 500), logged with the ' +
      'application and key id; the plaintext is gone from the store; new ' +
      'credentials fix it',
    async () => {
      const oldKid = kidOf(keyAtRest.current());
      await w.restart(() => keyAtRest.replace());
      // The start-up migration sealed the plaintext values (an embedded datafile has since been compacted).
      await expectNoSecretStored(secrets);

      const res = await sendAll();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        failure: 3,
        results: {
          [devices.android]: 'no_credentials',
          [devices.iosToken]: 'no_credentials',
          [devices.iosCert]: 'no_credentials',
        },
        success: 0,
      });
      const logged = w.pb
        .output()
        .split('\n')
        .filter((l) => l.includes(apps.both) && l.includes(oldKid));
      expect(logged.length).toBeGreaterThanOrEqual(1);
      for (const s of secrets) expect(w.pb.output()).not.toContain(s);

      const read = await w
        .api()
        .get(`${V2}/push/applications/${apps.both}`)
        .set(...p.auth);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ google_credentials: '********', apns_p8: '********' });
      const renamed = await w
        .api()
        .patch(`${V2}/push/applications/${apps.both}`)
        .set(...p.auth)
        .send({ name: 'renamed' });
      expect(renamed.status).toBe(200);
      const fixed = await w
        .api()
        .patch(`${V2}/push/applications/${apps.both}`)
        .set(...p.auth)
        .send({ google_credentials: sa.base64, apns_p8: key.p8 });
      expect(fixed.status).toBe(200);
      const again = await w.send(p, { recipients: [devices.android, devices.iosToken], title: 'fixed' });
      expect(again.body).toEqual({
        failure: 0,
        results: { [devices.android]: 'success', [devices.iosToken]: 'success' },
        success: 2,
      });
    },
    120_000,
  );
});
