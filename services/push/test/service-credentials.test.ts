/**
 * Push credentials at rest, through the service's bus subjects on an in-process bus and an
 * in-memory store kept across restarts: what is stored, the start-up migration (plain values and
 * old-key values), key rotation, and applications whose key is not configured.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { CREDENTIAL_MASK, Subjects, type BusReply } from '@patchbay/contracts';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type BlobStore,
  type Stoppable,
} from '@patchbay/platform';
import { loadPushSettings } from '../src/config';
import type { ApplicationDoc } from '../src/domain/documents';
import { openPushRepo, type PushRepo } from '../src/repo';
import { startPushService } from '../src/service';
import { keyId } from '@patchbay/platform';
import { isSealedSecret, type SealedSecret } from '@patchbay/platform';
import { fakeApnsP12, fakeApnsTokenKey, fakeServiceAccount } from '../../../tests/support/fake-credentials';
import type { ApiJson } from '../../../tests/support/api-json';

const PARTNER = randomUUID();
const [KEY_A, KEY_B, KEY_C] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const b64 = (k: Buffer) => k.toString('base64');

let docs: SqliteDocStore;
let repo: PushRepo;
let hub: ReturnType<typeof MemoryBus.hub>;
let bus: MemoryBus;
let service: Stoppable | undefined;

/** (Re)starts the service on the same store with these keys. */
async function start(key: Buffer, old: Buffer[] = []): Promise<void> {
  await service?.stop();
  const settings = loadPushSettings({
    PUSH_CREDENTIALS_KEY: b64(key),
    PUSH_CREDENTIALS_OLD_KEYS: old.map(b64).join(','),
    BUS_TIMEOUT_MS: '5000',
  });
  service = await startPushService(
    {
      bus: new MemoryBus(hub),
      docs,
      blobs: {} as BlobStore,
      logger: createLogger({ name: 'push-test', level: 'silent' }),
      metrics: createMetricsRegistry('push-test'),
    },
    settings,
  );
}

const call = (subject: string, body: unknown, params: Record<string, string> = {}): Promise<BusReply> =>
  bus.request(
    subject,
    {
      principal: { partner_sid: PARTNER, login: 'test', scopes: [], token_sid: null },
      params,
      query: {},
      body,
      url: 'http://api.test/core/v2/push',
    },
    { timeoutMs: 5000 },
  );
const ok = (r: BusReply): ApiJson => {
  if (!('body' in r) || r.status !== 200) throw new Error(`expected 200, got ${r.status} ${JSON.stringify(r)}`);
  return r.body as ApiJson;
};
const stored = async (sid: string): Promise<ApplicationDoc> =>
  (await repo.applications.findOne({ application_sid: sid })) as ApplicationDoc;
const kidOf = (v: unknown): string | null => (isSealedSecret(v) ? v.kid : null);

/** An application as written before credentials were encrypted: plain strings in the store. */
async function insertLegacy(fields: Partial<ApplicationDoc>): Promise<string> {
  const sid = randomUUID();
  await repo.applications.insertOne({
    name: 'legacy',
    apns_id: null,
    apns_key_id: null,
    apns_team_id: null,
    apns_topic: null,
    google_credentials: null,
    apns_p12: null,
    apns_p12_password: null,
    apns_p8: null,
    application_sid: sid,
    partner_sid: PARTNER,
    date_created: new Date(),
    apns_p12_expiration: null,
    credentials_revision: 'legacy',
    credentials_version: 1,
    ...fields,
  });
  return sid;
}

beforeAll(async () => {
  hub = MemoryBus.hub();
  bus = new MemoryBus(hub);
  docs = new SqliteDocStore();
  repo = await openPushRepo(docs);
});
afterAll(async () => {
  await service?.stop();
  await bus.close();
  await docs.close();
});

describe('push credentials at rest', () => {
  const sa = fakeServiceAccount('at-rest');
  const apns = fakeApnsTokenKey();
  const p12 = fakeApnsP12({ password: 'p12-secret-password', bundleId: 'com.example.rest' });
  let created: string;
  let legacy: string;

  test('created credentials are stored sealed with the current key and returned masked', async () => {
    await start(KEY_A);
    const body = ok(
      await call(Subjects.push.applicationCreate, {
        name: 'both',
        google_credentials: sa.base64,
        apns_p8: apns.p8,
        apns_key_id: apns.keyId,
        apns_team_id: apns.teamId,
        apns_topic: 'com.example',
      }),
    );
    created = body.application_sid;
    expect(body).toMatchObject({ google_credentials: CREDENTIAL_MASK, apns_p8: CREDENTIAL_MASK, apns_p12: null });
    const doc = await stored(created);
    expect(kidOf(doc.google_credentials)).toBe(keyId(KEY_A));
    expect(kidOf(doc.apns_p8)).toBe(keyId(KEY_A));
    expect(doc.apns_p12).toBeNull();
    const raw = JSON.stringify(doc);
    expect(raw).not.toContain(sa.base64);
    expect(raw).not.toContain(sa.json.private_key.split('\n')[1]);
    expect(raw).not.toContain(apns.p8.split('\n')[1]);
    expect(ok(await call(Subjects.push.applicationGet, undefined, { application_sid: created }))).toMatchObject({
      google_credentials: CREDENTIAL_MASK,
      apns_p8: CREDENTIAL_MASK,
    });
  });

  test(
    'a plain value stored before encryption is read as is (checked ' + 'against) and sealed on its next write',
    async () => {
      legacy = await insertLegacy({
        apns_p12: p12.base64,
        apns_p12_password: 'p12-secret-password',
        google_credentials: sa.base64,
      });
      // The stored .p12 is opened with the new password: it was read, in plaintext, as it was stored.
      const wrong = await call(
        Subjects.push.applicationUpdate,
        { apns_p12_password: 'not-the-password' },
        { application_sid: legacy },
      );
      expect(wrong.status).toBe(422);
      expect(JSON.stringify(wrong)).toMatch(/apns_p12 does not open with apns_p12_password/);
      expect(ok(await call(Subjects.push.applicationGet, undefined, { application_sid: legacy }))).toMatchObject({
        apns_p12: CREDENTIAL_MASK,
        apns_p12_password: CREDENTIAL_MASK,
      });
      expect((await stored(legacy)).apns_p12_password).toBe('p12-secret-password');
      ok(await call(Subjects.push.applicationUpdate, { name: 'renamed' }, { application_sid: legacy }));
      const doc = await stored(legacy);
      for (const f of ['apns_p12', 'apns_p12_password', 'google_credentials'] as const)
        expect(kidOf(doc[f])).toBe(keyId(KEY_A));
      expect(JSON.stringify(doc)).not.toContain('p12-secret-password');
    },
  );

  test('start-up migration: plain values and old-key values are re-sealed with the new key, idempotently', async () => {
    const plain = await insertLegacy({ google_credentials: sa.base64 });
    await start(KEY_B, [KEY_A]);
    for (const sid of [created, legacy, plain]) {
      const doc = await stored(sid);
      for (const f of ['google_credentials', 'apns_p12', 'apns_p12_password', 'apns_p8'] as const)
        if (doc[f] !== null) expect(kidOf(doc[f])).toBe(keyId(KEY_B));
    }
    const before = await stored(created);
    await start(KEY_B, [KEY_A]);
    expect(await stored(created)).toEqual(before);
    // Credentials under the new key still check out: the .p12 opens with its password again.
    ok(
      await call(
        Subjects.push.applicationUpdate,
        { apns_p12_password: 'p12-secret-password', apns_p12: CREDENTIAL_MASK },
        { application_sid: legacy },
      ),
    );
    // And with the old key dropped, everything still opens.
    await start(KEY_B);
    const wrong = await call(
      Subjects.push.applicationUpdate,
      { apns_p12_password: 'nope' },
      { application_sid: legacy },
    );
    expect(JSON.stringify(wrong)).toMatch(/apns_p12 does not open with apns_p12_password/);
  });

  test(
    'an unknown key: its platform gets no_credentials, the application ' +
      'stays readable and editable, and new credentials fix it',
    async () => {
      // google_credentials under the current key, APNs under a key this process never had.
      await start(KEY_B);
      const foreign: SealedSecret = {
        v: 1,
        kid: 'deadbeef',
        iv: b64(randomBytes(12)),
        tag: b64(randomBytes(16)),
        data: b64(randomBytes(40)),
      };
      const app = ok(await call(Subjects.push.applicationCreate, { name: 'mixed', google_credentials: sa.base64 }))
        .application_sid as string;
      await repo.applications.updateOne(
        { application_sid: app },
        { $set: { apns_p12: foreign, apns_p12_password: foreign } },
      );
      await start(KEY_C, [KEY_B]);
      const ios = ok(
        await call(Subjects.push.deviceCreate, { application_sid: app, type: 'ios', token: 'a'.repeat(64) }),
      ).device_sid as string;
      const sent = ok(await call(Subjects.push.notificationSend, { recipients: [ios], title: 'x' }));
      expect(sent).toEqual({ failure: 1, results: { [ios]: 'no_credentials' }, success: 0 });
      expect(ok(await call(Subjects.push.applicationGet, undefined, { application_sid: app }))).toMatchObject({
        apns_p12: CREDENTIAL_MASK,
        apns_p12_password: CREDENTIAL_MASK,
      });
      // A rename keeps the value it cannot read exactly as stored (an operator may still add its key).
      ok(
        await call(
          Subjects.push.applicationUpdate,
          { name: 'renamed', apns_p12: CREDENTIAL_MASK },
          { application_sid: app },
        ),
      );
      expect((await stored(app)).apns_p12).toEqual(foreign);
      expect(kidOf((await stored(app)).google_credentials)).toBe(keyId(KEY_C));
      // Half of the certificate pair cannot be checked against the unreadable other half: 422, not 500.
      const half = await call(Subjects.push.applicationUpdate, { apns_p12_password: 'new' }, { application_sid: app });
      expect(half.status).toBe(422);
      expect(JSON.stringify(half)).toMatch(
        /apns_p12 was encrypted with a key this server does not have \(key id deadbeef\)/,
      );
      // New credentials replace it.
      ok(
        await call(
          Subjects.push.applicationUpdate,
          { apns_p12: p12.base64, apns_p12_password: 'p12-secret-password' },
          { application_sid: app },
        ),
      );
      expect(kidOf((await stored(app)).apns_p12)).toBe(keyId(KEY_C));
    },
  );
});
