/** Token handlers: the caller's own tokens only, with_related, narrowing, revocation and its event. */
import { Subjects, unwrapReply, type ListEnvelope, type Token } from '@patchbay/contracts';
import { startIdentityKit, type IdentityKit } from './identity-kit';
import { eventually } from '../../../../tests/support/poll';

let kit: IdentityKit;
beforeAll(async () => {
  kit = await startIdentityKit();
});
afterAll(() => kit.stop());

test("a partner lists and gets its own tokens, never their secrets; another partner's is a 404", async () => {
  const a = await kit.newPartner();
  const b = await kit.newPartner();
  const list = unwrapReply<ListEnvelope<Token>>(await kit.call('tokenList', a.principal));
  expect(list.items.map((t) => [t.token_sid, t.access_token])).toEqual([[a.token.token_sid, null]]);
  expect((await kit.call('tokenGet', b.principal, { params: { token_sid: a.token.token_sid } })).status).toBe(404);
});

test('with_related: true adds the partner, false or absent does not, anything else is a 400 naming it', async () => {
  const a = await kit.newPartner();
  const get = (query: Record<string, string>) =>
    kit.call('tokenGet', a.principal, { params: { token_sid: a.token.token_sid }, query });
  expect(unwrapReply<Token>(await get({ with_related: 'TRUE' })).partner).toEqual(a.partner);
  expect(unwrapReply<Token>(await get({ with_related: 'false' })).partner).toBeUndefined();
  expect(unwrapReply<Token>(await get({})).partner).toBeUndefined();
  expect(await get({ with_related: 'maybe' })).toMatchObject({
    status: 400,
    error: { errors: [{ field: 'with_related' }] },
  });
});

test(
  'narrowing a token and revoking it announce evt.token.revoked; a ' + 'revoked token no longer authenticates',
  async () => {
    const revoked: string[] = [];
    const sub = await kit.bus.listen!(Subjects.events.tokenRevoked, async (e) => {
      revoked.push((e as { token_sid: string }).token_sid);
    });
    const a = await kit.newPartner(['sms.read', 'push.read']);
    const narrowed = unwrapReply<Token>(
      await kit.call('tokenUpdate', a.principal, {
        params: { token_sid: a.token.token_sid },
        body: { scopes: ['sms.read'] },
      }),
    );
    expect(narrowed.scopes).toEqual(['sms.read']);
    expect((await kit.principalOf(a.token.access_token!)).scopes).toEqual(['sms.read']);
    expect(
      await kit.call('tokenUpdate', a.principal, {
        params: { token_sid: a.token.token_sid },
        body: { scopes: ['calls.read'] },
      }),
    ).toMatchObject({ status: 422 });
    expect(
      (
        await kit.call('tokenRevoke', a.principal, {
          body: { token: a.token.access_token, token_type_hint: 'access_token' },
        })
      ).status,
    ).toBe(204);
    expect((await kit.bus.request(Subjects.identity.authenticateToken, { token: a.token.access_token })).status).toBe(
      401,
    );
    await eventually(() => expect(revoked).toEqual([a.token.token_sid, a.token.token_sid]), 2000, 10);
    await sub.stop();
  },
);

test('bootstrap is idempotent: the same partner, no new secrets, fixed ones applied again', async () => {
  const again = unwrapReply<{
    created: boolean;
    partner: { partner_sid: string };
    password: string | null;
    access_token: string | null;
    password_from_env: boolean;
  }>(await kit.bus.request(Subjects.identity.bootstrap, { login: 'admin', password: 'admin-password' }));
  expect(again).toMatchObject({
    created: false,
    partner: { partner_sid: kit.admin.partner.partner_sid },
    password: null,
    access_token: null,
    password_from_env: true,
  });
  expect((await kit.bus.request(Subjects.identity.bootstrap, { login: '' })).status).toBe(400);
});
