import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mode } from '../harness/api';
import { fakeApnsP12, type FakeApnsTokenKey, type FakeServiceAccount } from '../support/fake-credentials';
import { FakePushWorld, deviceToken, tokenApp, type PushTestPartner } from '../support/fake-push-world';

/**
 * Push credentials are encrypted at rest: what the push service writes to its data directory
 * holds no private key and no password, and sending still works — after a crash and restart with
 * the same generated key file, for values stored in plaintext before encryption existed (the
 * start-up migration seals them), and, when the key is replaced by an unknown one, the affected
 * recipients get `no_credentials` instead of an error. One instance of its own (embedded store).
 */
// What is on disk can only be read with the embedded store; with MONGODB_URL the data lives in
// MongoDB and this suite says so instead of running (the crypto is covered by services/push/test).
const onDisk = !process.env.MONGODB_URL;
if (!onDisk) console.warn('push-credentials-at-rest: skipped, MONGODB_URL is set (this suite reads the embedded store\'s files)');

let w: FakePushWorld;
beforeAll(async () => {
  if (!onDisk) return;
  w = await FakePushWorld.start(mode(), { sendDeadlineMs: 4000, attemptTimeoutMs: 2500, maxRetries: 1, retryBaseMs: 50 });
}, 120_000);
afterAll(() => w?.stop(), 60_000);

const V2 = '/core/v2';

/** Every regular file under `dir`, with its contents. */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push({ file: full, text: fs.readFileSync(full).toString('latin1') });
  }
  return out;
}
const keyFile = () => path.join(w.pb.dataDir, 'push', 'credentials.key');
const kidOf = (base64Key: string) => createHash('sha256').update(Buffer.from(base64Key.trim(), 'base64')).digest('hex').slice(0, 8);
/** The middle line of a PEM block: key material, not its armour. */
const pemBody = (pem: string) => { const lines = pem.trim().split('\n'); return lines[Math.floor(lines.length / 2)]; };

/** The file the application is stored in: the one file of the data directory holding its SID in an application record (devices name it too). */
function applicationDatafile(applicationSid: string): { file: string; text: string } {
  const hits = filesUnder(w.pb.dataDir).filter((f) => f.text.includes(applicationSid) && f.text.includes('"credentials_revision"'));
  expect(hits).toHaveLength(1);
  return hits[0];
}

/** Appends the application's latest record to its datafile, changed as `change` says (the embedded store reads the last record of an _id). */
function rewriteStoredApplication(applicationSid: string, change: (doc: Record<string, unknown>) => void): void {
  const { file, text } = applicationDatafile(applicationSid);
  const records = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
  const latest = records.filter((r) => r.application_sid === applicationSid).pop() as Record<string, unknown>;
  change(latest);
  fs.appendFileSync(file, `${JSON.stringify(latest)}\n`);
}

(onDisk ? describe : describe.skip)('push credentials at rest', () => {
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
    apps.both = await w.newApp(p, { name: 'both', google_credentials: sa.base64, ...tokenApp(key, 'com.example.atrest') });
    apps.cert = await w.newApp(p, { name: 'cert', apns_p12: cert.base64, apns_p12_password: password });
    devices.android = await w.newDevice(p, apps.both, 'android', deviceToken('fcm'));
    devices.iosToken = await w.newDevice(p, apps.both, 'ios', deviceToken('ios'), 'production');
    devices.iosCert = await w.newDevice(p, apps.cert, 'ios', deviceToken('ios'), 'development');
    secrets = [password, sa.base64.slice(100, 164), pemBody(sa.json.private_key), pemBody(key.p8), cert.base64.slice(200, 264)];

    const stored = applicationDatafile(apps.both);
    expect(stored.file.startsWith(path.join(w.pb.dataDir, 'push') + path.sep)).toBe(true);
    expect(stored.text).toMatch(/"google_credentials":\{"v":1,"kid":"[0-9a-f]{8}","iv":"[^"]+","tag":"[^"]+","data":"[^"]+"\}/);
    const files = filesUnder(w.pb.dataDir);
    for (const f of files) for (const s of secrets) expect({ file: f.file, leaks: f.text.includes(s) }).toEqual({ file: f.file, leaks: false });
    expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);

    const res = await sendAll();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ failure: 0, results: { [devices.android]: 'success', [devices.iosToken]: 'success', [devices.iosCert]: 'success' }, success: 3 });
    const read = await w.api().get(`${V2}/push/applications/${apps.cert}`).set(...p.auth);
    expect(read.body).toMatchObject({ apns_p12: '********', apns_p12_password: '********' });
  });

  test('after a crash and restart with the same key file, and for credentials stored in plaintext before encryption, sending still works', async () => {
    const keyBefore = fs.readFileSync(keyFile(), 'utf8');
    // As a datafile written before credentials were encrypted would have it: plain strings.
    await w.restart(() => rewriteStoredApplication(apps.cert, (doc) => { doc.apns_p12 = cert.base64; doc.apns_p12_password = password; }));
    expect(fs.readFileSync(keyFile(), 'utf8')).toBe(keyBefore);
    const res = await sendAll();
    expect(res.body).toEqual({ failure: 0, results: { [devices.android]: 'success', [devices.iosToken]: 'success', [devices.iosCert]: 'success' }, success: 3 });
  }, 120_000);

  test('with an unknown key: no_credentials (not a 500), logged with the application and key id; the plaintext is gone from disk; new credentials fix it', async () => {
    const oldKid = kidOf(fs.readFileSync(keyFile(), 'utf8'));
    await w.restart(() => fs.writeFileSync(keyFile(), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 }));
    // The start-up migration sealed the plaintext values; the datafile has since been compacted.
    for (const f of filesUnder(w.pb.dataDir)) for (const s of secrets) expect({ file: f.file, leaks: f.text.includes(s) }).toEqual({ file: f.file, leaks: false });

    const res = await sendAll();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ failure: 3, results: { [devices.android]: 'no_credentials', [devices.iosToken]: 'no_credentials', [devices.iosCert]: 'no_credentials' }, success: 0 });
    const logged = w.pb.output().split('\n').filter((l) => l.includes(apps.both) && l.includes(oldKid));
    expect(logged.length).toBeGreaterThanOrEqual(1);
    for (const s of secrets) expect(w.pb.output()).not.toContain(s);

    const read = await w.api().get(`${V2}/push/applications/${apps.both}`).set(...p.auth);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ google_credentials: '********', apns_p8: '********' });
    const renamed = await w.api().patch(`${V2}/push/applications/${apps.both}`).set(...p.auth).send({ name: 'renamed' });
    expect(renamed.status).toBe(200);
    const fixed = await w.api().patch(`${V2}/push/applications/${apps.both}`).set(...p.auth).send({ google_credentials: sa.base64, apns_p8: key.p8 });
    expect(fixed.status).toBe(200);
    const again = await w.send(p, { recipients: [devices.android, devices.iosToken], title: 'fixed' });
    expect(again.body).toEqual({ failure: 0, results: { [devices.android]: 'success', [devices.iosToken]: 'success' }, success: 2 });
  }, 120_000);
});
