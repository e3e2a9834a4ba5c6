/**
 * No lost updates: for every resource that can be updated, concurrent PATCHes of different fields
 * of one object all land, round after round (the probe saw 8 of 10 container changes and 11 of 25
 * push-application changes lost, every request answered 200). And a rule that spans fields
 * (threshold ≤ quota) holds when the two fields are changed by racing requests.
 */
import { API, adminAuth, http, newPartner, type TestPartner } from '../harness/api';
import { createContainer, uploadRaw } from '../support/storage';
import { fakeServiceAccount } from '../support/fake-credentials';
import { created, freshAddress } from './endpoints-kit';
import type { ApiJson } from '../support/api-json';

const ROUNDS = 4;
let p: TestPartner;
beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 10 } });
});

type Patch = Record<string, unknown>;

/** Sends every patch at once to `path`, expects all 200, then returns the object as read back. */
async function race(path: string, patches: Patch[], auth: [string, string] = p.auth): Promise<ApiJson> {
  const answers = await Promise.all(
    patches.map((body) =>
      http()
        .patch(`${API}${path}`)
        .set(...auth)
        .send(body),
    ),
  );
  for (const res of answers) expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  const read = await http()
    .get(`${API}${path}`)
    .set(...auth);
  expect(read.status).toBe(200);
  return read.body;
}

/** Every field of every patch is what the object now holds. */
function expectAll(obj: Record<string, unknown>, patches: Patch[]): void {
  for (const patch of patches) expect(obj).toMatchObject(patch);
}

test('containers: 10 concurrent PATCHes of 10 fields, every round, none lost', async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const c = await createContainer(p);
    const patches: Patch[] = [
      { name: `n${round}` },
      { string_key_1: `a${round}` },
      { string_key_2: `b${round}` },
      { string_key_3: `c${round}` },
      { string_key_4: `d${round}` },
      { integer_key_1: round + 1 },
      { integer_key_2: round + 2 },
      { quota_files: 50 + round },
      { default_file_publish: 'no' },
      { threshold_grace_period: 30 + round },
    ];
    expectAll(await race(`/storage/containers/${c.container_sid}`, patches), patches);
    await http()
      .delete(`${API}/storage/containers/${c.container_sid}`)
      .set(...p.auth);
  }
});

test('containers: a rule across fields (threshold_files ≤ quota_files) holds when both change at once', async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const c = await createContainer(p);
    const path = `${API}/storage/containers/${c.container_sid}`;
    // Each is valid against the container as it was; together they break the rule: one must lose.
    const [quota, threshold] = await Promise.all([
      http()
        .patch(path)
        .set(...p.auth)
        .send({ quota_files: 10 }),
      http()
        .patch(path)
        .set(...p.auth)
        .send({ threshold_files: 50 }),
    ]);
    expect([quota.status, threshold.status].sort()).toEqual([200, 422]);
    const now = (
      await http()
        .get(path)
        .set(...p.auth)
    ).body;
    expect(now.threshold_files === null || now.threshold_files <= now.quota_files).toBe(true);
    expect(now.quota_files === 10 ? quota.status : threshold.status).toBe(200);
    await http()
      .delete(path)
      .set(...p.auth);
  }
});

test('files: 10 concurrent PATCHes of 10 fields, none lost, threshold counts moved once', async () => {
  const c = await createContainer(p);
  for (let round = 0; round < ROUNDS; round++) {
    const up = await uploadRaw(
      p,
      { container_sid: c.container_sid, name: `f${round}.bin` },
      Buffer.alloc(100 + round, 1),
    );
    expect(up.status).toBe(201);
    const patches: Patch[] = [
      { name: `renamed-${round}.bin` },
      { string_key_1: 'a' },
      { string_key_2: 'b' },
      { string_key_3: 'c' },
      { string_key_4: 'd' },
      { integer_key_1: 1 },
      { integer_key_2: 2 },
      { publish: 'file_access_name' },
      { lifecycle_ttl: 3600 },
      { threshold_include: false },
    ];
    expectAll(await race(`/storage/files/${up.body.file_sid}`, patches), patches);
  }
  // Every file left the threshold counts exactly once.
  const container = (
    await http()
      .get(`${API}/storage/containers/${c.container_sid}`)
      .set(...p.auth)
  ).body;
  expect(container).toMatchObject({ total_files: ROUNDS, threshold_total_files: 0, threshold_total_bytes: 0 });
});

test(
  'endpoints: 10 concurrent PATCHes (top-level fields and nested ' + 'attributes merged key by key), none lost',
  async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const e = await created(p, { type: 'third_party', addresses: [freshAddress()] });
      const patches: Patch[] = [
        { name: `e${round}` },
        { capacity: round + 3 },
        { out_sip_username: 'u' },
        { out_sip_password: 'pw' },
        ...['key', 'value', 'account_sid', 'api_url', 'did_group_id', 'subscriber_sid'].map((k) => ({
          attributes: { [k]: `${k}-${round}` },
        })),
      ];
      expectAll(await race(`/endpoints/${e.endpoint_sid}`, patches), patches);
    }
  },
);

test('push applications: 6 concurrent PATCHes of 6 fields (credentials included), none lost', async () => {
  const sa = fakeServiceAccount('race');
  for (let round = 0; round < ROUNDS; round++) {
    const app = await http()
      .post(`${API}/push/applications`)
      .set(...p.auth)
      .send({ name: 'app' });
    expect(app.status).toBe(200);
    const patches: Patch[] = [
      { name: `a${round}` },
      { apns_id: `id${round}` },
      { apns_topic: `com.example.${round}` },
      { apns_key_id: 'KEY' },
      { apns_team_id: 'TEAM' },
      { google_credentials: sa.base64 },
    ];
    const read = await race(`/push/applications/${app.body.application_sid}`, patches);
    expectAll(
      read,
      patches.map((x) => ('google_credentials' in x ? { google_credentials: '********' } : x)),
    );
  }
});

test('push devices: 5 concurrent PATCHes of 5 fields, none lost', async () => {
  const app = await http()
    .post(`${API}/push/applications`)
    .set(...p.auth)
    .send({ name: 'devices' });
  for (let round = 0; round < ROUNDS; round++) {
    const d = await http()
      .post(`${API}/push/devices?reuse=false`)
      .set(...p.auth)
      .send({ application_sid: app.body.application_sid, type: 'android', token: `t${round}${Date.now()}` });
    expect(d.status).toBe(200);
    const patches: Patch[] = [
      { token: `new${round}${Date.now()}` },
      { application_version: `1.${round}` },
      { os_version: `14.${round}` },
      { environment: 'development' },
      { type: 'web' },
    ];
    expectAll(await race(`/push/devices/${d.body.device_sid}`, patches), patches);
  }
});

test('partners and tokens: concurrent PATCHes of different fields, none lost', async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const child = await newPartner();
    const patches: Patch[] = [
      { name: `partner-${round}` },
      { attributes: { tier: round } },
      { password: `new-password-${round}` },
    ];
    // The password is write-only.
    expectAll(await race(`/partners/${child.partner_sid}`, patches, adminAuth()), patches.slice(0, 2));
    const login = await http()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: child.login, password: `new-password-${round}` });
    expect(login.status).toBe(200);
    const token = login.body as { token_sid: string };
    const tokenPatches: Patch[] = [{ name: `token-${round}` }, { scopes: ['storage.read'] }];
    expectAll(await race(`/oauth/tokens/${token.token_sid}`, tokenPatches, child.auth), tokenPatches);
  }
});
