/** Partner handlers: who may see and change whom, scope grants, events, and the internal lookups. */
import { Subjects, unwrapReply, type ListEnvelope, type Partner } from '@patchbay/contracts';
import { startIdentityKit, type IdentityKit } from './identity-kit';
import { eventually } from '../../../../tests/support/poll';

let kit: IdentityKit;
beforeAll(async () => {
  kit = await startIdentityKit();
});
afterAll(() => kit.stop());

test('a new partner has the default scopes and is announced (evt.partner.created) with its API form', async () => {
  const events: unknown[] = [];
  const sub = await kit.bus.subscribe(Subjects.events.partnerCreated, `test-${Date.now()}`, async (e) => {
    events.push(e);
  });
  const { partner } = await kit.newPartner();
  expect(partner.available_scopes).not.toContain('partners.manage');
  expect(partner.available_scopes).not.toContain('media.manage');
  await eventually(() => expect(events).toContainEqual({ partner }), 2000, 10);
  await sub.stop();
});

test('a login is taken once (422 naming login); a scope the creator lacks cannot be given', async () => {
  const { partner } = await kit.newPartner();
  const again = await kit.call('partnerCreate', kit.admin.principal, {
    body: { login: partner.login, password: 'partner-password' },
  });
  expect(again).toMatchObject({ status: 422, error: { errors: [{ field: 'login' }] } });
  const limited = await kit.newPartner(['partners.manage']);
  const wide = await kit.call('partnerCreate', limited.principal, {
    body: { login: `sub-${Date.now()}`, password: 'partner-password', available_scopes: ['push.read'] },
  });
  expect(wide).toMatchObject({ status: 422, error: { errors: [{ field: 'available_scopes' }] } });
});

test('a partner sees itself and those it created; any other is a 404; it cannot change its own scopes', async () => {
  const a = await kit.newPartner(['partners.manage', 'partners.read']);
  const child = unwrapReply<Partner>(
    await kit.call('partnerCreate', a.principal, {
      body: { login: `child-${Date.now()}`, password: 'partner-password' },
    }),
  );
  const b = await kit.newPartner();
  expect((await kit.call('partnerGet', a.principal, { params: { partner_sid: child.partner_sid } })).status).toBe(200);
  expect((await kit.call('partnerGet', a.principal, { params: { partner_sid: b.partner.partner_sid } })).status).toBe(
    404,
  );
  const list = unwrapReply<ListEnvelope<Partner>>(await kit.call('partnerList', a.principal));
  expect(list.items.map((p) => p.partner_sid).sort()).toEqual([a.partner.partner_sid, child.partner_sid].sort());
  const own = await kit.call('partnerUpdate', a.principal, {
    params: { partner_sid: a.partner.partner_sid },
    body: { available_scopes: ['partners.read'] },
  });
  expect(own).toMatchObject({ status: 422, error: { errors: [{ field: 'available_scopes' }] } });
});

test('internal lookups: any partner by SID; every SID in order, a page at a time', async () => {
  const { partner } = await kit.newPartner();
  expect(
    unwrapReply<Partner>(await kit.bus.request(Subjects.identity.partnerLookup, { partner_sid: partner.partner_sid })),
  ).toEqual(partner);
  expect((await kit.bus.request(Subjects.identity.partnerLookup, { partner_sid: 'unknown' })).status).toBe(404);
  const all = unwrapReply<{ partner_sids: string[] }>(
    await kit.bus.request(Subjects.identity.partnerSids, { limit: 1000 }),
  ).partner_sids;
  expect(all).toEqual([...all].sort());
  const page = unwrapReply<{ partner_sids: string[] }>(
    await kit.bus.request(Subjects.identity.partnerSids, { after: all[0], limit: 2 }),
  ).partner_sids;
  expect(page).toEqual(all.slice(1, 3));
  expect((await kit.bus.request(Subjects.identity.partnerSids, { limit: 0 })).status).toBe(400);
});
