import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';
import { fakeApnsP12, fakeApnsTokenKey, fakeServiceAccount } from '../support/fake-credentials';

const APP_KEYS = [
  'apns_id',
  'apns_key_id',
  'apns_p12',
  'apns_p12_expiration',
  'apns_p12_password',
  'apns_p8',
  'apns_team_id',
  'apns_topic',
  'application_sid',
  'google_credentials',
  'name',
  'partner_sid',
];
const MASK = '********';

let p: TestPartner;
let other: TestPartner;
beforeAll(async () => {
  [p, other] = await Promise.all([newPartner(), newPartner()]);
});

const createApp = (who: TestPartner, body: Record<string, unknown>) =>
  http()
    .post(`${API}/push/applications`)
    .set(...who.auth)
    .send(body);

/** A 422 naming exactly these fields. */
function expect422(res: { status: number; body: unknown }, fields: string[]): void {
  expect(res.status).toBe(422);
  expectErrorBody(res.body);
  const body = res.body as { message: string; errors: Array<{ field: string }> };
  expect(body.message).toBe('object validation error');
  expect(body.errors.map((e) => e.field).sort()).toEqual([...fields].sort());
}

describe('push applications', () => {
  test('create with nothing: name "N/A", every platform field null, keys sorted', async () => {
    const res = await createApp(p, {});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(APP_KEYS);
    expect(res.body).toMatchObject({
      name: 'N/A',
      partner_sid: p.partner_sid,
      google_credentials: null,
      apns_p12: null,
      apns_p12_expiration: null,
      apns_p8: null,
      apns_topic: null,
    });
    expect(res.body.application_sid).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('google_credentials: a Base64 service account is stored write-only; APNs fields stay null', async () => {
    const sa = fakeServiceAccount('proj-crud');
    const res = await createApp(p, { name: 'Android app', google_credentials: sa.base64 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Android app',
      google_credentials: MASK,
      apns_p12: null,
      apns_p12_password: null,
      apns_p8: null,
      apns_key_id: null,
    });
    const got = await http()
      .get(`${API}/push/applications/${res.body.application_sid}`)
      .set(...p.auth);
    expect(got.body.google_credentials).toBe(MASK);
    expect(JSON.stringify(got.body)).not.toContain(sa.json.private_key.slice(40, 80));
  });

  test('google_credentials that do not decode to a service account: 422', async () => {
    const json = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
    const sa = fakeServiceAccount('proj-bad').json;
    for (const bad of [
      'not base64 at all!',
      Buffer.from('not json').toString('base64'),
      json([1, 2]),
      json({ ...sa, private_key: undefined }),
      json({ ...sa, private_key: 'nope' }),
      json({ ...sa, type: 'authorized_user' }),
    ]) {
      expect422(await createApp(p, { google_credentials: bad }), ['google_credentials']);
    }
  });

  test(
    'apns_p12: opened with its password, expiration read from the ' + 'certificate (modern and old RC2 files)',
    async () => {
      for (const legacy of [false, true]) {
        const cert = fakeApnsP12({ password: 'p12-secret', bundleId: 'com.example.crud', days: 40, legacy });
        const res = await createApp(p, {
          apns_p12: cert.base64,
          apns_p12_password: 'p12-secret',
          apns_topic: 'com.example.crud',
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          apns_p12: MASK,
          apns_p12_password: MASK,
          apns_topic: 'com.example.crud',
          google_credentials: null,
          apns_p8: null,
        });
        expect(res.body.apns_p12_expiration).toBe(cert.notAfter.toISOString());
      }
    },
  );

  test('apns_p12 that does not open: 422 (wrong password, not a p12, not Base64)', async () => {
    const cert = fakeApnsP12({ password: 'right', bundleId: 'com.example.x' });
    expect422(await createApp(p, { apns_p12: cert.base64, apns_p12_password: 'wrong' }), ['apns_p12']);
    expect422(await createApp(p, { apns_p12: cert.base64 }), ['apns_p12']);
    expect422(await createApp(p, { apns_p12: Buffer.from('hello').toString('base64'), apns_p12_password: 'right' }), [
      'apns_p12',
    ]);
    expect422(await createApp(p, { apns_p12: '%%%', apns_p12_password: 'right' }), ['apns_p12']);
  });

  test('apns_p8 token key: needs key and team IDs; PEM or Base64; a non-EC key is refused', async () => {
    const key = fakeApnsTokenKey();
    const ok = await createApp(p, {
      apns_p8: key.p8,
      apns_key_id: key.keyId,
      apns_team_id: key.teamId,
      apns_topic: 'com.example.p8',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      apns_p8: MASK,
      apns_key_id: key.keyId,
      apns_team_id: key.teamId,
      apns_p12: null,
      apns_p12_expiration: null,
    });
    const b64 = await createApp(p, {
      apns_p8: Buffer.from(key.p8).toString('base64'),
      apns_key_id: key.keyId,
      apns_team_id: key.teamId,
    });
    expect(b64.status).toBe(200);
    expect422(await createApp(p, { apns_p8: key.p8 }), ['apns_key_id', 'apns_team_id']);
    const rsa = fakeServiceAccount('x').json.private_key;
    expect422(await createApp(p, { apns_p8: rsa, apns_key_id: 'K', apns_team_id: 'T' }), ['apns_p8']);
  });

  test(
    'PATCH changes what it names; the mask keeps a credential; null clears ' + 'it (and the p12 expiration)',
    async () => {
      const cert = fakeApnsP12({ password: 'pw', bundleId: 'com.example.patch' });
      const sa = fakeServiceAccount('proj-patch');
      const created = (
        await createApp(p, {
          name: 'before',
          google_credentials: sa.base64,
          apns_p12: cert.base64,
          apns_p12_password: 'pw',
        })
      ).body;
      const url = `${API}/push/applications/${created.application_sid}`;
      const renamed = await http()
        .patch(url)
        .set(...p.auth)
        .send({ name: 'after', google_credentials: MASK });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        name: 'after',
        google_credentials: MASK,
        apns_p12: MASK,
        apns_p12_expiration: created.apns_p12_expiration,
      });
      // Sending back exactly what was read changes nothing.
      const { application_sid: _sid, partner_sid: _p, ...readBack } = renamed.body;
      const same = await http()
        .patch(url)
        .set(...p.auth)
        .send(readBack);
      expect(same.status).toBe(200);
      expect(same.body).toEqual(renamed.body);
      const cleared = await http()
        .patch(url)
        .set(...p.auth)
        .send({ apns_p12: null });
      expect(cleared.body).toMatchObject({
        apns_p12: null,
        apns_p12_password: null,
        apns_p12_expiration: null,
        google_credentials: MASK,
      });
      expect422(
        await http()
          .patch(url)
          .set(...p.auth)
          .send({ google_credentials: 'eyJub3QiOiJzYSJ9' }),
        ['google_credentials'],
      );
    },
  );

  test('PUT replaces: omitted fields go back to their defaults', async () => {
    const sa = fakeServiceAccount('proj-put');
    const created = (
      await createApp(p, { name: 'keep?', google_credentials: sa.base64, apns_topic: 'com.example.put' })
    ).body;
    const res = await http()
      .put(`${API}/push/applications/${created.application_sid}`)
      .set(...p.auth)
      .send({ apns_id: 'team-app' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'N/A',
      google_credentials: null,
      apns_topic: null,
      apns_id: 'team-app',
      application_sid: created.application_sid,
    });
  });

  test('read-only fields sent back are ignored; unknown fields and wrong types are 400 naming the field', async () => {
    const res = await createApp(p, {
      name: 'ro',
      application_sid: 'x',
      partner_sid: 'y',
      apns_p12_expiration: '2000-01-01',
    });
    expect(res.status).toBe(200);
    expect(res.body.partner_sid).toBe(p.partner_sid);
    expect(res.body.apns_p12_expiration).toBeNull();
    const bad = await createApp(p, { nope: 1, name: 5 });
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'nope']);
  });

  test('list: own applications only, paginated, filterable; credentials cannot be filtered on', async () => {
    const q = await newPartner();
    for (const name of ['one', 'two', 'three']) await createApp(q, { name });
    const list = await http()
      .get(`${API}/push/applications`)
      .query({ limit: 2 })
      .set(...q.auth);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 2, total: 3, has_more: true, limit: 2, offset: 0 });
    expect(list.body.items.map((a: { name: string }) => a.name)).toEqual(['one', 'two']);
    expect(list.body.pagination.next).toContain('offset=2');
    const filtered = await http()
      .get(`${API}/push/applications`)
      .query({ filter: 'name eq "three"' })
      .set(...q.auth);
    expect(filtered.body.items.map((a: { name: string }) => a.name)).toEqual(['three']);
    const leak = await http()
      .get(`${API}/push/applications`)
      .query({ filter: 'google_credentials like "e%"' })
      .set(...q.auth);
    expect(leak.status).toBe(400);
    const fields = await http()
      .get(`${API}/push/applications`)
      .query({ include_fields: 'name,google_credentials' })
      .set(...q.auth);
    expect(fields.body.items[0]).toEqual({ google_credentials: null, name: 'one' });
  });

  test('with_related=true adds the partner', async () => {
    const created = (await createApp(p, { name: 'related' })).body;
    const res = await http()
      .get(`${API}/push/applications/${created.application_sid}`)
      .query({ with_related: 'true' })
      .set(...p.auth);
    expect(res.status).toBe(200);
    expect(res.body.partner).toMatchObject({ partner_sid: p.partner_sid, login: p.login });
  });

  test("another partner's application is a 404 for every operation", async () => {
    const mine = (await createApp(p, { name: 'private' })).body;
    const url = `${API}/push/applications/${mine.application_sid}`;
    for (const res of [
      await http()
        .get(url)
        .set(...other.auth),
      await http()
        .patch(url)
        .set(...other.auth)
        .send({ name: 'x' }),
      await http()
        .put(url)
        .set(...other.auth)
        .send({ name: 'x' }),
      await http()
        .delete(url)
        .set(...other.auth),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Cannot find item by SID');
    }
    const list = await http()
      .get(`${API}/push/applications`)
      .query({ limit: 1000 })
      .set(...other.auth);
    expect(list.body.items.map((a: { application_sid: string }) => a.application_sid)).not.toContain(
      mine.application_sid,
    );
    expect(
      (
        await http()
          .get(url)
          .set(...p.auth)
      ).body.name,
    ).toBe('private');
  });

  test('DELETE: 204, then 404; its devices go with it', async () => {
    const app = (await createApp(p, { name: 'doomed' })).body;
    const device = (
      await http()
        .post(`${API}/push/devices`)
        .set(...p.auth)
        .send({ application_sid: app.application_sid, type: 'android', token: 'doomed-token' })
    ).body;
    const del = await http()
      .delete(`${API}/push/applications/${app.application_sid}`)
      .set(...p.auth);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(
      (
        await http()
          .get(`${API}/push/applications/${app.application_sid}`)
          .set(...p.auth)
      ).status,
    ).toBe(404);
    expect(
      (
        await http()
          .get(`${API}/push/devices/${device.device_sid}`)
          .set(...p.auth)
      ).status,
    ).toBe(404);
    expect(
      (
        await http()
          .delete(`${API}/push/applications/${app.application_sid}`)
          .set(...p.auth)
      ).status,
    ).toBe(404);
  });

  test(
    'scopes: push.read reads, push.create creates (and sends), push.update ' + 'updates, push.delete deletes',
    async () => {
      const reader = await newPartner({ scopes: ['push.read'] });
      const creator = await newPartner({ scopes: ['push.create'] });
      expect((await createApp(reader, {})).status).toBe(403);
      expect(
        (
          await http()
            .post(`${API}/push/notifications`)
            .set(...reader.auth)
            .send({ recipients: ['x'] })
        ).status,
      ).toBe(403);
      expect(
        (
          await http()
            .get(`${API}/push/applications`)
            .set(...reader.auth)
        ).status,
      ).toBe(200);
      const app = await createApp(creator, {});
      expect(app.status).toBe(200);
      const url = `${API}/push/applications/${app.body.application_sid}`;
      expect(
        (
          await http()
            .get(url)
            .set(...creator.auth)
        ).status,
      ).toBe(403);
      expect(
        (
          await http()
            .patch(url)
            .set(...creator.auth)
            .send({ name: 'n' })
        ).status,
      ).toBe(403);
      expect(
        (
          await http()
            .delete(url)
            .set(...creator.auth)
        ).status,
      ).toBe(403);
      const sent = await http()
        .post(`${API}/push/notifications`)
        .set(...creator.auth)
        .send({ recipients: ['00000000-0000-4000-8000-000000000000'] });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({
        failure: 1,
        results: { '00000000-0000-4000-8000-000000000000': 'not_found' },
        success: 0,
      });
    },
  );
});
