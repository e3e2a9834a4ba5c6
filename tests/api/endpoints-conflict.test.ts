import { newPartner, type TestPartner } from '../harness/api';
import { AUTH_REQUIRED_DENIED, DUPLICATE_IP, created, endpointsAs, freshAddress } from './endpoints-kit';

let partner: TestPartner;
let ep: ReturnType<typeof endpointsAs>;
beforeAll(async () => {
  partner = await newPartner();
  ep = endpointsAs(partner);
});

const open = (...addresses: Array<{ ip: string; port?: number }>) => ({
  type: 'third_party',
  auth_required: false,
  addresses,
});

describe('auth_required=false on an IP and port already used with auth_required=false: 409', () => {
  test('the exact error body of the interface; another port, or auth_required=true, is fine', async () => {
    const a = freshAddress();
    await created(partner, open(a));
    const dup = await ep.create(open(a));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual(DUPLICATE_IP);
    expect((await ep.create(open({ ip: a.ip, port: a.port === 65535 ? 1024 : a.port + 1 }))).status).toBe(200);
    expect((await ep.create({ type: 'third_party', auth_required: true, addresses: [a] })).status).toBe(200);
    expect((await ep.create({ type: 'third_party', addresses: [a] })).status).toBe(200);
  });

  test('any address of the endpoint counts, and port 5060 is the default', async () => {
    const a = freshAddress();
    await created(partner, open(freshAddress(), { ip: a.ip }));
    const res = await ep.create(open({ ip: a.ip, port: 5060 }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual(DUPLICATE_IP);
  });

  test("another partner's endpoint counts too", async () => {
    const a = freshAddress();
    await created(partner, open(a));
    const other = endpointsAs(await newPartner());
    const res = await other.create(open(a));
    expect(res.status).toBe(409);
    expect(res.body).toEqual(DUPLICATE_IP);
  });

  test('host names compare case-insensitively', async () => {
    const host = `pbx-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.example.com`;
    await created(partner, open({ ip: host }));
    const res = await ep.create(open({ ip: host.toUpperCase() }));
    expect(res.status).toBe(409);
  });

  test(
    'updates: turning auth_required off, or moving an address onto a used ' + 'one, is refused and changes nothing',
    async () => {
      const a = freshAddress();
      await created(partner, open(a));
      const closed = await created(partner, { type: 'third_party', addresses: [a] });
      const off = await ep.patch(closed.endpoint_sid, { auth_required: false });
      expect(off.status).toBe(409);
      expect(off.body).toEqual(DUPLICATE_IP);
      const elsewhere = await created(partner, open(freshAddress()));
      const moved = await ep.patch(elsewhere.endpoint_sid, { addresses: [a] });
      expect(moved.status).toBe(409);
      expect(moved.body).toEqual(DUPLICATE_IP);
      const put = await ep.put(elsewhere.endpoint_sid, { ...elsewhere, addresses: [a] });
      expect(put.status).toBe(409);
      expect((await ep.get(closed.endpoint_sid)).body).toEqual(closed);
      expect((await ep.get(elsewhere.endpoint_sid)).body).toEqual(elsewhere);
    },
  );

  test('deleting the endpoint, or turning auth_required on, frees the IP and port', async () => {
    const a = freshAddress();
    const first = await created(partner, open(a));
    expect((await ep.delete(first.endpoint_sid)).status).toBe(204);
    const second = await created(partner, open(a));
    expect((await ep.patch(second.endpoint_sid, { auth_required: true })).status).toBe(200);
    expect((await ep.create(open(a))).status).toBe(200);
  });

  test('20 concurrent creates on one IP and port: exactly one succeeds, the others get the 409', async () => {
    const a = freshAddress();
    const partners = await Promise.all(Array.from({ length: 4 }, () => newPartner()));
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => endpointsAs(partners[i % partners.length]).create(open(a))),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.body).toEqual(DUPLICATE_IP);
  });

  test('20 concurrent updates onto one IP and port: exactly one succeeds', async () => {
    const a = freshAddress();
    const endpoints = await Promise.all(Array.from({ length: 20 }, () => created(partner, open(freshAddress()))));
    const replies = await Promise.all(endpoints.map((e) => ep.patch(e.endpoint_sid, { addresses: [a] })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
  });
});

describe('auth_required needs endpoints.manage_auth_required: 422 otherwise', () => {
  let restricted: ReturnType<typeof endpointsAs>;
  beforeAll(async () => {
    restricted = endpointsAs(await newPartner({ scopes: ['endpoints.manage'] }));
  });

  test('create with auth_required=false: the exact error body of the interface', async () => {
    const res = await restricted.create(open(freshAddress()));
    expect(res.status).toBe(422);
    expect(res.body).toEqual(AUTH_REQUIRED_DENIED);
  });

  test('update turning auth_required off: the same 422, nothing changed', async () => {
    const e = (await restricted.create({ type: 'third_party', addresses: [freshAddress()] })).body;
    expect(e.auth_required).toBe(true);
    const res = await restricted.patch(e.endpoint_sid, { auth_required: false });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(AUTH_REQUIRED_DENIED);
    const put = await restricted.put(e.endpoint_sid, { ...e, auth_required: false });
    expect(put.status).toBe(422);
    expect(put.body).toEqual(AUTH_REQUIRED_DENIED);
    expect((await restricted.get(e.endpoint_sid)).body).toEqual(e);
  });

  test('with the scope the same requests succeed', async () => {
    const res = await ep.create(open(freshAddress()));
    expect(res.status).toBe(200);
    expect(res.body.auth_required).toBe(false);
    const back = await ep.patch(res.body.endpoint_sid, { auth_required: true });
    expect(back.status).toBe(200);
    expect(back.body.auth_required).toBe(true);
  });
});
