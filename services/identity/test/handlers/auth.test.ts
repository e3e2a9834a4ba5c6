/** Authentication handlers: bearer tokens (hash, expiry, partner status), HTTP Basic, the password grant. */
import { Subjects, type Authenticated } from '@patchbay/contracts';
import { startIdentityKit, type IdentityKit } from './identity-kit';

let kit: IdentityKit;
beforeAll(async () => {
  kit = await startIdentityKit();
});
afterAll(() => kit.stop());

const ask = (subject: string, payload: unknown) => kit.bus.request(subject, payload);

test("a bearer token stands for its partner with the token's scopes; an unknown one is a 401", async () => {
  const { partner, token } = await kit.newPartner(['endpoints.read', 'push.read']);
  const ok = await ask(Subjects.identity.authenticateToken, { token: token.access_token });
  expect(ok.status).toBe(200);
  expect('body' in ok && (ok.body as Authenticated)).toEqual({
    principal: {
      partner_sid: partner.partner_sid,
      login: partner.login,
      scopes: ['endpoints.read', 'push.read'],
      token_sid: token.token_sid,
    },
    expires_at: null,
  });
  expect((await ask(Subjects.identity.authenticateToken, { token: 'nope' })).status).toBe(401);
});

test('an expired token is refused, and the answer carries the expiry so a gateway caches no longer', async () => {
  const { partner } = await kit.newPartner();
  const issued = await ask(Subjects.identity.tokenIssue, {
    form: {
      grant_type: 'password',
      username: partner.login,
      password: 'partner-password',
      access_token_expires_in: 3600,
    },
  });
  const secret = 'body' in issued ? (issued.body as { access_token: string }).access_token : '';
  const ok = await ask(Subjects.identity.authenticateToken, { token: secret });
  expect('body' in ok && Date.parse((ok.body as Authenticated).expires_at!)).toBeGreaterThan(Date.now() + 3500_000);
});

test("a suspended partner's token and password stop working", async () => {
  const { partner, token } = await kit.newPartner();
  expect(
    (
      await kit.call('partnerUpdate', kit.admin.principal, {
        params: { partner_sid: partner.partner_sid },
        body: { status: 'suspended' },
      })
    ).status,
  ).toBe(200);
  expect((await ask(Subjects.identity.authenticateToken, { token: token.access_token })).status).toBe(401);
  expect(
    (await ask(Subjects.identity.authenticateBasic, { login: partner.login, password: 'partner-password' })).status,
  ).toBe(401);
});

test('HTTP Basic: the partner with every scope it holds, no token; a wrong password is a 401', async () => {
  const { partner } = await kit.newPartner(['sms.read']);
  const ok = await ask(Subjects.identity.authenticateBasic, {
    login: partner.login,
    password: 'partner-password',
    client_ip: '203.0.113.9',
  });
  expect('body' in ok && (ok.body as Authenticated).principal).toEqual({
    partner_sid: partner.partner_sid,
    login: partner.login,
    scopes: ['sms.read'],
    token_sid: null,
  });
  expect((await ask(Subjects.identity.authenticateBasic, { login: partner.login, password: 'wrong' })).status).toBe(
    401,
  );
});

test('the password grant checks its form: a bad field is a 400 naming it, a scope not held a 422', async () => {
  const { partner } = await kit.newPartner(['sms.read']);
  const bad = await ask(Subjects.identity.tokenIssue, {
    form: { grant_type: 'client_credentials', username: partner.login, password: 'partner-password' },
  });
  expect(bad).toMatchObject({ status: 400, error: { errors: [{ field: 'grant_type' }] } });
  const wide = await ask(Subjects.identity.tokenIssue, {
    form: { grant_type: 'password', username: partner.login, password: 'partner-password', scopes: ['push.read'] },
  });
  expect(wide).toMatchObject({ status: 422, error: { errors: [{ field: 'scopes' }] } });
});
