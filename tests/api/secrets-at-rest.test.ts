/**
 * At rest (docs/security.md "Secrets at rest", "The data directory"): an endpoint's SIP passwords
 * and a hosted application's password are found nowhere in what Patchbay stores (the data directory's
 * files, or the MongoDB documents) — the answers kept for their Idempotency-Keys included — while the
 * API answers them as before (a replay too); and every file and
 * directory Patchbay made under DATA_DIR is its user's alone (0600, 0700).
 */
import fs from 'node:fs';
import path from 'node:path';
import { API, http, instance, newPartner, type TestPartner } from '../harness/api';
import { storedTexts } from '../harness/stores';
import { uploadRaw } from '../support/storage';
import type { ApiJson } from '../support/api-json';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner();
});

const OUT = `out-${Math.random().toString(36).slice(2)}-secret`;
const SIP = `sip-${Math.random().toString(36).slice(2)}-secret`;

test('endpoint secrets are sealed at rest and answered as written', async () => {
  const createTrunk = () =>
    http()
      .post(`${API}/endpoints`)
      .set(...p.auth)
      .set('Idempotency-Key', `trunk-${SIP}`)
      .send({
        type: 'third_party',
        out_sip_username: 'trunk',
        out_sip_password: OUT,
        addresses: [{ ip: '192.0.2.77', sip_username: 'a', sip_password: SIP }],
      });
  const trunk = await createTrunk();
  expect(trunk.status).toBe(200);
  // The answer is kept for its key (sealed): a repeat gets it, secrets and all.
  const replayed = await createTrunk();
  expect(replayed.headers['idempotent-replayed']).toBe('true');
  expect(replayed.body).toEqual(trunk.body);
  const hosted = await http()
    .post(`${API}/endpoints`)
    .set(...p.auth)
    .set('Idempotency-Key', `hosted-${SIP}`)
    .send({ type: 'conference' });
  expect(hosted.status).toBe(200);
  const password = String((hosted.body as ApiJson & { properties: { password: string } }).properties.password);
  expect(password.length).toBeGreaterThan(10);

  const got = await http()
    .get(`${API}/endpoints/${String(trunk.body.endpoint_sid)}`)
    .set(...p.auth);
  expect(got.body).toMatchObject({
    out_sip_password: OUT,
    addresses: [expect.objectContaining({ sip_password: SIP })],
  });

  const stored = await storedTexts(instance());
  expect(stored.length).toBeGreaterThan(0);
  for (const secret of [OUT, SIP, password])
    expect(stored.filter((s) => s.text.includes(secret)).map((s) => s.where)).toEqual([]);
});

test('files under DATA_DIR are 0600 and directories 0700', async () => {
  // At least one blob and every service's store exist by now.
  const c = await http()
    .get(`${API}/storage/containers`)
    .set(...p.auth);
  const up = await uploadRaw(p, { container_sid: String(c.body.items[0].container_sid), name: 'm.txt' }, 'hello');
  expect(up.status).toBe(201);
  const root = instance().dataDir;
  const open: string[] = [];
  let files = 0;
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const where = path.join(e.parentPath, e.name);
    const mode = fs.statSync(where).mode & 0o777;
    if (e.isFile()) files++;
    if ((e.isFile() && mode !== 0o600) || (e.isDirectory() && mode !== 0o700))
      open.push(`${where} ${mode.toString(8)}`);
  }
  expect(open).toEqual([]);
  // With MongoDB (GridFS blobs) nothing of the stores is under DATA_DIR; otherwise every service's store is.
  if (!process.env.MONGODB_URL) expect(files).toBeGreaterThan(5);
});
