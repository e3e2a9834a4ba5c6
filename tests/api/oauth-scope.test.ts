/**
 * `/oauth/token` as OAuth clients send it (decisions §41): the standard `scope` parameter
 * (space-delimited, RFC 6749 §3.3) issues a token with exactly those scopes; a scope the partner
 * lacks, or a name that is no scope, is a 400 `invalid_scope` (RFC 6749 §5.2) naming `scope`.
 */
import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner({ scopes: ['storage.read', 'endpoints.read', 'endpoints.manage'] });
});

const grant = (fields: Record<string, string>) =>
  http()
    .post(`${API}/oauth/token`)
    .type('form')
    .send({ grant_type: 'password', username: p.login, password: p.password, ...fields });

test('scope issues a token with the requested scopes, and the token is held to them', async () => {
  const res = await grant({ scope: 'storage.read  endpoints.read storage.read' });
  expect(res.status).toBe(200);
  expect([...res.body.scopes].sort()).toEqual(['endpoints.read', 'storage.read']);
  const auth: [string, string] = ['Authorization', `Bearer ${res.body.access_token}`];
  expect(
    (
      await http()
        .get(`${API}/storage/containers`)
        .set(...auth)
    ).status,
  ).toBe(200);
  const refused = await http()
    .post(`${API}/endpoints`)
    .set(...auth)
    .send({ type: 'flexml' });
  expect(refused.status).toBe(403);
});

test('a scope the partner lacks, or no scope at all: 400 invalid_scope naming scope; no token issued', async () => {
  const before = (
    await http()
      .get(`${API}/oauth/tokens`)
      .set(...p.auth)
  ).body.total;
  for (const scope of ['storage.read push.manage', 'storage.read not.a.scope', ' ']) {
    const res = await grant({ scope });
    expect({ scope, status: res.status }).toEqual({ scope, status: 400 });
    expectErrorBody(res.body);
    expect(res.body.message).toBe('invalid_scope');
    expect(res.body.errors[0].field).toBe('scope');
  }
  expect((await grant({ scope: 'storage.read push.manage' })).body.errors[0].message).toMatch(/push\.manage/);
  const after = (
    await http()
      .get(`${API}/oauth/tokens`)
      .set(...p.auth)
  ).body.total;
  expect(after).toBe(before);
});

test('a wrong password is still a 401 whatever the scope asks', async () => {
  const res = await http()
    .post(`${API}/oauth/token`)
    .type('form')
    .send({ grant_type: 'password', username: p.login, password: 'wrong-password', scope: 'push.manage' });
  expect(res.status).toBe(401);
});
