import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';

const DEVICE_KEYS = [
  'application_sid',
  'application_version',
  'device_sid',
  'environment',
  'os_version',
  'partner_sid',
  'token',
  'type',
];

let p: TestPartner;
let other: TestPartner;
let appSid: string;
let otherAppSid: string;

beforeAll(async () => {
  [p, other] = await Promise.all([newPartner(), newPartner()]);
  appSid = (
    await http()
      .post(`${API}/push/applications`)
      .set(...p.auth)
      .send({ name: 'devices' })
  ).body.application_sid;
  otherAppSid = (
    await http()
      .post(`${API}/push/applications`)
      .set(...other.auth)
      .send({ name: 'theirs' })
  ).body.application_sid;
});

const createDevice = (who: TestPartner, body: Record<string, unknown>, query: Record<string, string> = {}) =>
  http()
    .post(`${API}/push/devices`)
    .query(query)
    .set(...who.auth)
    .send(body);
let seq = 0;
const token = () => `tok${Date.now().toString(36)}${(seq++).toString(36)}`;

describe('push devices', () => {
  test('create: environment "production" and empty versions by default, keys sorted', async () => {
    const t = token();
    const res = await createDevice(p, { application_sid: appSid, type: 'android', token: t });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(DEVICE_KEYS);
    expect(res.body).toMatchObject({
      application_sid: appSid,
      type: 'android',
      token: t,
      environment: 'production',
      application_version: '',
      os_version: '',
      partner_sid: p.partner_sid,
    });
    const full = await createDevice(p, {
      application_sid: appSid,
      type: 'ios',
      token: token(),
      environment: 'development',
      application_version: '2.1',
      os_version: '17.4',
    });
    expect(full.body).toMatchObject({
      type: 'ios',
      environment: 'development',
      application_version: '2.1',
      os_version: '17.4',
    });
  });

  test('application_sid, type and token are required; bad values are 400 naming the field', async () => {
    const res = await createDevice(p, {});
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['application_sid', 'token', 'type']);
    const bad = await createDevice(p, {
      application_sid: appSid,
      type: 'blackberry',
      token: 'has space',
      environment: 'staging',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['environment', 'token', 'type']);
  });

  test("an application that does not exist, or is another partner's: 422 on application_sid", async () => {
    for (const sid of [otherAppSid, '00000000-0000-4000-8000-000000000000']) {
      const res = await createDevice(p, { application_sid: sid, type: 'web', token: token() });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toBe('application_sid');
    }
  });

  test(
    'reuse (default true) returns the device with the same token, type and ' + 'environment; reuse=false makes another',
    async () => {
      const t = token();
      const first = (await createDevice(p, { application_sid: appSid, type: 'android', token: t })).body;
      const again = await createDevice(p, { application_sid: appSid, type: 'android', token: t, os_version: '14' });
      expect(again.body.device_sid).toBe(first.device_sid);
      const explicit = await createDevice(p, { application_sid: appSid, type: 'android', token: t }, { reuse: 'true' });
      expect(explicit.body.device_sid).toBe(first.device_sid);
      const otherEnv = await createDevice(p, {
        application_sid: appSid,
        type: 'android',
        token: t,
        environment: 'development',
      });
      expect(otherEnv.body.device_sid).not.toBe(first.device_sid);
      const otherType = await createDevice(p, { application_sid: appSid, type: 'web', token: t });
      expect(otherType.body.device_sid).not.toBe(first.device_sid);
      const fresh = await createDevice(p, { application_sid: appSid, type: 'android', token: t }, { reuse: 'false' });
      expect(fresh.status).toBe(200);
      expect(fresh.body.device_sid).not.toBe(first.device_sid);
      const badFlag = await createDevice(p, { application_sid: appSid, type: 'android', token: t }, { reuse: 'maybe' });
      expect(badFlag.status).toBe(400);
      expect(badFlag.body.errors[0].field).toBe('reuse');
      // Another partner's identical registration is never reused.
      const theirs = await createDevice(other, { application_sid: otherAppSid, type: 'android', token: t });
      expect(theirs.body.device_sid).not.toBe(first.device_sid);
      expect(theirs.body.partner_sid).toBe(other.partner_sid);
    },
  );

  test(
    'concurrent registrations of one token (reuse) agree on one device; ' + 'after it is deleted, a new one is made',
    async () => {
      const t = token();
      const replies = await Promise.all(
        Array.from({ length: 12 }, () => createDevice(p, { application_sid: appSid, type: 'android', token: t })),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
      const sids = new Set(replies.map((r) => r.body.device_sid));
      expect(sids.size).toBe(1);
      const listed = await http()
        .get(`${API}/push/devices`)
        .query({ filter: `token eq '${t}'` })
        .set(...p.auth);
      expect(listed.body.items.map((d: { device_sid: string }) => d.device_sid)).toEqual([...sids]);
      // The registration is released with the device: the next registration is a new device, and again only one.
      expect(
        (
          await http()
            .delete(`${API}/push/devices/${[...sids][0]}`)
            .set(...p.auth)
        ).status,
      ).toBe(204);
      const again = await Promise.all(
        Array.from({ length: 6 }, () => createDevice(p, { application_sid: appSid, type: 'android', token: t })),
      );
      const next = new Set(again.map((r) => r.body.device_sid));
      expect(next.size).toBe(1);
      expect(next.has([...sids][0])).toBe(false);
    },
  );

  test('GET, list with filter, PATCH, PUT, DELETE', async () => {
    const q = await newPartner();
    const app = (
      await http()
        .post(`${API}/push/applications`)
        .set(...q.auth)
        .send({})
    ).body.application_sid;
    const app2 = (
      await http()
        .post(`${API}/push/applications`)
        .set(...q.auth)
        .send({})
    ).body.application_sid;
    const made = [];
    for (const type of ['android', 'ios', 'web'])
      made.push((await createDevice(q, { application_sid: app, type, token: token() })).body);
    const got = await http()
      .get(`${API}/push/devices/${made[1].device_sid}`)
      .set(...q.auth);
    expect(got.body).toEqual(made[1]);
    const list = await http()
      .get(`${API}/push/devices`)
      .query({ filter: 'type ne "ios"' })
      .set(...q.auth);
    expect(list.body).toMatchObject({ count: 2, total: 2 });
    expect(list.body.items.map((d: { type: string }) => d.type)).toEqual(['android', 'web']);
    const url = `${API}/push/devices/${made[0].device_sid}`;
    const patched = await http()
      .patch(url)
      .set(...q.auth)
      .send({ os_version: '15', application_sid: app2, device_sid: 'ignored' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      os_version: '15',
      application_sid: app2,
      device_sid: made[0].device_sid,
      type: 'android',
    });
    expect(
      (
        await http()
          .patch(url)
          .set(...q.auth)
          .send({ application_sid: otherAppSid })
      ).status,
    ).toBe(422);
    const put = await http()
      .put(url)
      .set(...q.auth)
      .send({ application_sid: app, type: 'web', token: 'replaced' });
    expect(put.body).toMatchObject({
      type: 'web',
      token: 'replaced',
      os_version: '',
      environment: 'production',
      application_sid: app,
    });
    const putMissing = await http()
      .put(url)
      .set(...q.auth)
      .send({ type: 'web' });
    expect(putMissing.status).toBe(400);
    const byApp = await http()
      .get(`${API}/push/devices`)
      .query({ filter: `application_sid eq ${app}` })
      .set(...q.auth);
    expect(byApp.body.total).toBe(3);
    expect(
      (
        await http()
          .delete(url)
          .set(...q.auth)
      ).status,
    ).toBe(204);
    expect(
      (
        await http()
          .get(url)
          .set(...q.auth)
      ).status,
    ).toBe(404);
  });

  test("another partner's device is a 404 for every operation", async () => {
    const mine = (await createDevice(p, { application_sid: appSid, type: 'android', token: token() })).body;
    const url = `${API}/push/devices/${mine.device_sid}`;
    for (const res of [
      await http()
        .get(url)
        .set(...other.auth),
      await http()
        .patch(url)
        .set(...other.auth)
        .send({ os_version: 'x' }),
      await http()
        .put(url)
        .set(...other.auth)
        .send({ application_sid: otherAppSid, type: 'web', token: 'x' }),
      await http()
        .delete(url)
        .set(...other.auth),
    ]) {
      expect(res.status).toBe(404);
      expectErrorBody(res.body);
    }
    const list = await http()
      .get(`${API}/push/devices`)
      .query({ limit: 1000 })
      .set(...other.auth);
    expect(list.body.items.every((d: { partner_sid: string }) => d.partner_sid === other.partner_sid)).toBe(true);
  });

  test('with_related=true on a device adds the partner; include_fields selects', async () => {
    const d = (await createDevice(p, { application_sid: appSid, type: 'web', token: token() })).body;
    const res = await http()
      .get(`${API}/push/devices/${d.device_sid}`)
      .query({ with_related: 'true', include_fields: 'token,partner.login' })
      .set(...p.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ partner: { login: p.login }, token: d.token });
  });
});
