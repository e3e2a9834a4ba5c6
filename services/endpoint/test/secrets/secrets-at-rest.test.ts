import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDocStore, createLogger, isSealedSecret, type CredentialKeySettings } from '@patchbay/platform';
import type { BusReply } from '@patchbay/contracts';
import { captureLogger } from '../../../../packages/platform/src/testing/capture-logger';
import { startKit, type ServiceKit } from '../service-kit';

/**
 * Endpoint secrets at rest (docs/security.md "Secrets at rest"): `out_sip_password`, each address's
 * `sip_password` and a hosted application's `password` are stored sealed (ENDPOINT_CREDENTIALS_KEY's
 * scheme) and answered in plaintext as before; values written in plaintext by earlier versions, or
 * sealed with an old key, are read and sealed again with the current key at start.
 */
const OUT = 'out-secret-7d1f';
const SIP = 'sip-secret-93ab';
const keysOf = (current: Buffer, old: Buffer[] = []): CredentialKeySettings => ({
  current,
  old,
  keyFile: '/nonexistent',
});
const body = (r: BusReply) => ('body' in r ? (r.body as Record<string, unknown>) : {});

let kit: ServiceKit | undefined;
let dir: string;
/** A store on files in `dir`: what one start of the service finds there. */
const onDisk = () => new SqliteDocStore({ file: path.join(dir, 'store.sqlite') });
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-endpoint-secrets-'));
});
afterEach(async () => {
  await kit?.stop();
  kit = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

async function createBoth(k: ServiceKit, partnerSid: string) {
  const trunk = await k.call('create', {
    partnerSid,
    body: {
      type: 'third_party',
      out_sip_username: 'u',
      out_sip_password: OUT,
      addresses: [{ ip: '10.1.2.3', sip_username: 'a', sip_password: SIP }],
    },
  });
  const hosted = await k.call('create', { partnerSid, body: { type: 'conference' } });
  expect([trunk.status, hosted.status]).toEqual([200, 200]);
  return { trunk: body(trunk), hosted: body(hosted) };
}

test('stored sealed, answered in plaintext: no secret in the stored documents', async () => {
  kit = await startKit({ credentialKeys: keysOf(randomBytes(32)) });
  const partnerSid = randomUUID();
  const { trunk, hosted } = await createBoth(kit, partnerSid);
  const password = (hosted.properties as Record<string, string>).password;
  expect(trunk.out_sip_password).toBe(OUT);
  expect((trunk.addresses as Array<Record<string, unknown>>)[0].sip_password).toBe(SIP);
  expect(password.length).toBeGreaterThan(10);

  const stored = await kit.repo.endpoints.find({ partner_sid: partnerSid });
  const text = JSON.stringify(stored);
  for (const secret of [OUT, SIP, password]) expect(text).not.toContain(secret);
  const raw = stored.find((d) => d.endpoint_sid === trunk.endpoint_sid) as Record<string, unknown>;
  expect(isSealedSecret(raw.out_sip_password)).toBe(true);
  expect(isSealedSecret((raw.addresses as Array<Record<string, unknown>>)[0].sip_password)).toBe(true);

  // Read back (get, list, update) exactly as written.
  const got = body(await kit.call('get', { partnerSid, params: { endpoint_sid: String(trunk.endpoint_sid) } }));
  expect(got).toEqual(trunk);
  const patched = await kit.call('update', {
    partnerSid,
    params: { endpoint_sid: String(trunk.endpoint_sid) },
    body: { name: 'renamed' },
  });
  expect(body(patched)).toMatchObject({ name: 'renamed', out_sip_password: OUT });
  const list = body(await kit.call('list', { partnerSid, query: {} }));
  expect(JSON.stringify(list)).toContain(password);
});

test('plaintext written by an earlier version is read, and sealed at the next start', async () => {
  const key = randomBytes(32);
  kit = await startKit({ credentialKeys: keysOf(key) }, undefined, undefined, onDisk());
  const partnerSid = randomUUID();
  const { trunk } = await createBoth(kit, partnerSid);
  await kit.stop();
  // As an earlier version stored it: the same endpoint with its secrets in plaintext.
  const earlier = onDisk();
  await earlier
    .collection('endpoints')
    .updateOne(
      { endpoint_sid: trunk.endpoint_sid },
      { $set: { out_sip_password: OUT, addresses: trunk.addresses as unknown[] } },
    );
  await earlier.close();
  kit = await startKit({ credentialKeys: keysOf(key) }, undefined, undefined, onDisk());
  const stored = await kit.docs.collection('endpoints').findOne({ endpoint_sid: trunk.endpoint_sid });
  expect(isSealedSecret(stored?.out_sip_password)).toBe(true);
  expect(JSON.stringify(stored)).not.toContain(SIP);
  const got = await kit.call('get', { partnerSid, params: { endpoint_sid: String(trunk.endpoint_sid) } });
  expect(body(got)).toEqual(trunk);
});

test(
  'rotation: values under the old key still open and are re-sealed with ' + 'the new one; an unknown key reads null',
  async () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    kit = await startKit({ credentialKeys: keysOf(a) }, undefined, undefined, onDisk());
    const partnerSid = randomUUID();
    const { trunk } = await createBoth(kit, partnerSid);
    const sealedWithA = (await kit.docs.collection('endpoints').findOne({ endpoint_sid: trunk.endpoint_sid }))
      ?.out_sip_password as { kid: string };
    await kit.stop();

    kit = await startKit({ credentialKeys: keysOf(b, [a]) }, undefined, undefined, onDisk());
    const resealed = (await kit.docs.collection('endpoints').findOne({ endpoint_sid: trunk.endpoint_sid }))
      ?.out_sip_password as { kid: string };
    expect(resealed.kid).not.toBe(sealedWithA.kid);
    expect(body(await kit.call('get', { partnerSid, params: { endpoint_sid: String(trunk.endpoint_sid) } }))).toEqual(
      trunk,
    );
    await kit.stop();

    // Started with neither key: the secret does not open; it reads as null and is logged, never a 500.
    const { logger, lines } = captureLogger();
    kit = await startKit({ credentialKeys: keysOf(randomBytes(32)) }, undefined, logger, onDisk());
    const got = await kit.call('get', { partnerSid, params: { endpoint_sid: String(trunk.endpoint_sid) } });
    expect(got.status).toBe(200);
    expect(body(got).out_sip_password).toBeNull();
    expect(lines.some((l) => /endpoint secret cannot be decrypted/.test(String(l.msg)))).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(OUT);
  },
);

test('a sealed value copied into another endpoint does not open there', async () => {
  kit = await startKit(
    { credentialKeys: keysOf(randomBytes(32)) },
    undefined,
    createLogger({ name: 't', level: 'silent' }),
  );
  const partnerSid = randomUUID();
  const { trunk, hosted } = await createBoth(kit, partnerSid);
  const stolen = (await kit.docs.collection('endpoints').findOne({ endpoint_sid: trunk.endpoint_sid }))
    ?.out_sip_password;
  await kit.docs
    .collection('endpoints')
    .updateOne({ endpoint_sid: hosted.endpoint_sid }, { $set: { out_sip_password: stolen } });
  const got = await kit.call('get', { partnerSid, params: { endpoint_sid: String(hosted.endpoint_sid) } });
  expect(body(got).out_sip_password).toBeNull();
});
