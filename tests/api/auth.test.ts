import { API, adminAuth, expectErrorBody, http, instance, newPartner } from '../harness/api';

describe('authentication', () => {
  test('no credentials: 401 Unauthorized', async () => {
    const res = await http().get(`${API}/countries`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [], message: 'Unauthorized' });
  });

  test('a wrong token or password: 401 Bad credentials', async () => {
    const res = await http().get(`${API}/countries`).set('Authorization', 'Bearer not-a-real-token');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [], message: 'Bad credentials' });
    const basic = await http().get(`${API}/countries`).auth(instance().login, 'wrong-password');
    expect(basic.status).toBe(401);
    expect(basic.body.message).toBe('Bad credentials');
    const garbage = await http().get(`${API}/countries`).set('Authorization', 'Digest abc');
    expect(garbage.status).toBe(401);
  });

  test('HTTP Basic with the partner login and password works', async () => {
    const p = await newPartner();
    const res = await http().get(`${API}/oauth/whoami`).auth(p.login, p.password);
    expect(res.status).toBe(200);
    expect(res.body.partner_sid).toBe(p.partner_sid);
  });

  test('whoami returns the calling partner without its password', async () => {
    const p = await newPartner();
    const res = await http()
      .get(`${API}/oauth/whoami`)
      .set(...p.auth);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'attributes',
      'available_scopes',
      'date_created',
      'login',
      'name',
      'partner_sid',
      'status',
    ]);
    expect(res.body).toMatchObject({ login: p.login, status: 'active' });
    expect(res.body.date_created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('a scope the partner lacks: 403 Forbidden', async () => {
    const p = await newPartner({ scopes: ['countries.read'] });
    const res = await http()
      .post(`${API}/partners`)
      .set(...p.auth)
      .send({ login: 'someone-else', password: 'password-123' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ errors: [], message: 'Forbidden' });
  });
});

describe('tokens', () => {
  test('password grant: the secret is shown once, stored hashed, listed without it', async () => {
    const p = await newPartner();
    const res = await http()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: p.login, password: p.password, access_token_expires_in: '3600' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'access_token',
      'date_created',
      'date_expiration_access_token',
      'date_last_accessed',
      'name',
      'partner_sid',
      'scopes',
      'token_sid',
      'token_type',
    ]);
    expect(res.body.token_type).toBe('bearer');
    const expiresIn =
      new Date(res.body.date_expiration_access_token).getTime() - new Date(res.body.date_created).getTime();
    expect(expiresIn).toBe(3600 * 1000);
    const list = await http()
      .get(`${API}/oauth/tokens`)
      .set(...p.auth);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    for (const t of list.body.items) expect(t.access_token).toBeNull();
    const one = await http()
      .get(`${API}/oauth/tokens/${res.body.token_sid}?with_related=true`)
      .set(...p.auth);
    expect(one.body.partner.partner_sid).toBe(p.partner_sid);
  });

  test('wrong password or grant: 401 / 400', async () => {
    const p = await newPartner();
    const bad = await http()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: p.login, password: 'nope' });
    expect(bad.status).toBe(401);
    const grant = await http()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'client_credentials', username: p.login, password: p.password });
    expect(grant.status).toBe(400);
    expect(grant.body.errors[0].field).toBe('grant_type');
  });

  test('revoke: the token stops working at once', async () => {
    const p = await newPartner();
    expect(
      (
        await http()
          .get(`${API}/oauth/whoami`)
          .set(...p.auth)
      ).status,
    ).toBe(200);
    const revoked = await http()
      .post(`${API}/oauth/revoke`)
      .set(...p.auth)
      .type('form')
      .send({});
    expect(revoked.status).toBe(204);
    const after = await http()
      .get(`${API}/oauth/whoami`)
      .set(...p.auth);
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Bad credentials');
  });

  test('revoke: an unknown field or an empty token is a 400 naming it, and revokes nothing', async () => {
    const p = await newPartner();
    const other = await http()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: p.login, password: p.password });
    const revoke = (form: Record<string, string>) =>
      http()
        .post(`${API}/oauth/revoke`)
        .set(...p.auth)
        .type('form')
        .send(form);
    const typo = await revoke({ tokn: other.body.access_token });
    expect(typo.status).toBe(400);
    expect(typo.body.errors).toEqual([expect.objectContaining({ field: 'tokn', message: 'unknown field' })]);
    const empty = await revoke({ token: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].field).toBe('token');
    // Both tokens still work: neither request fell back to revoking the caller's own token.
    for (const token of [p.token, other.body.access_token])
      expect((await http().get(`${API}/oauth/whoami`).set('Authorization', `Bearer ${token}`)).status).toBe(200);
    // RFC 7009's token_type_hint is accepted beside the token.
    const hinted = await revoke({ token: other.body.access_token, token_type_hint: 'access_token' });
    expect(hinted.status).toBe(204);
    expect(
      (await http().get(`${API}/oauth/whoami`).set('Authorization', `Bearer ${other.body.access_token}`)).status,
    ).toBe(401);
    expect(
      (
        await http()
          .get(`${API}/oauth/whoami`)
          .set(...p.auth)
      ).status,
    ).toBe(200);
  });

  test('an expired token is refused from the moment it expires, although the gateway had it cached', async () => {
    const p = await newPartner();
    const issued = await http()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: p.login, password: p.password, access_token_expires_in: 2 });
    expect(issued.status).toBe(200);
    const expiry = Date.parse(issued.body.date_expiration_access_token);
    const auth: [string, string] = ['Authorization', `Bearer ${issued.body.access_token}`];
    // Keep it warm in the gateway's credential cache (AUTH_CACHE_MS, 5 s by default) up to and past expiry.
    const answers: Array<{ sent: number; status: number }> = [];
    const lateCount = () => answers.filter((a) => a.sent >= expiry).length;
    // Past expiry by 600 ms and at least 6 requests after it (a loaded machine answers slower), within the cache's 5 s.
    while ((Date.now() < expiry + 600 || lateCount() < 6) && Date.now() < expiry + 4000) {
      const sent = Date.now();
      const res = await http()
        .get(`${API}/oauth/whoami`)
        .set(...auth);
      answers.push({ sent, status: res.status });
      await new Promise((r) => setTimeout(r, 20)); // the pace of the requests across the expiry
    }
    // Used before expiry (so it was cached), refused for every request sent at or after it.
    expect(answers.some((a) => a.sent < expiry - 500 && a.status === 200)).toBe(true);
    const late = answers.filter((a) => a.sent >= expiry);
    expect(late.length).toBeGreaterThan(5);
    expect(late.filter((a) => a.status !== 401)).toEqual([]);
  });

  test('a token narrowed to some scopes cannot use the others', async () => {
    const p = await newPartner();
    const t = await http()
      .post(`${API}/oauth/token`)
      .type('form')
      .send({ grant_type: 'password', username: p.login, password: p.password });
    const patched = await http()
      .patch(`${API}/oauth/tokens/${t.body.token_sid}`)
      .set(...p.auth)
      .send({ scopes: ['oauth.read'], name: 'narrow' });
    expect(patched.status).toBe(200);
    expect(patched.body.scopes).toEqual(['oauth.read']);
    const narrow = await http().get(`${API}/countries`).set('Authorization', `Bearer ${t.body.access_token}`);
    expect(narrow.status).toBe(403);
    const wider = await http()
      .patch(`${API}/oauth/tokens/${t.body.token_sid}`)
      .set(...p.auth)
      .send({ scopes: ['partners.manage'] });
    expect(wider.status).toBe(422);
    expectErrorBody(wider.body);
  });

  test("another partner's token is a 404", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const list = await http()
      .get(`${API}/oauth/tokens`)
      .set(...a.auth);
    const res = await http()
      .get(`${API}/oauth/tokens/${list.body.items[0].token_sid}`)
      .set(...b.auth);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Cannot find item by SID');
  });
});

describe('partners', () => {
  test('create, get and update a partner; the partner.created flow runs', async () => {
    const login = `child-${Date.now()}`;
    const res = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .send({ name: 'Child', login, password: 'child-password', available_scopes: ['countries.read'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Child',
      login,
      available_scopes: ['countries.read'],
      status: 'active',
      attributes: {},
    });
    expect(res.body.password).toBeUndefined();
    const got = await http()
      .get(`${API}/partners/${res.body.partner_sid}`)
      .set(...adminAuth());
    expect(got.body).toEqual(res.body);
    const upd = await http()
      .patch(`${API}/partners/${res.body.partner_sid}`)
      .set(...adminAuth())
      .send({ name: 'Renamed', attributes: { max_containers: 5 } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: 'Renamed', attributes: { max_containers: 5 } });
  });

  test('duplicate login, unknown fields and bad values are refused naming the field', async () => {
    const p = await newPartner();
    const dup = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .send({ login: p.login, password: 'another-password' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].field).toBe('login');
    const unknown = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .send({ login: 'x-unknown-field', password: 'password-123', colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: { field: string }) => e.field)).toContain('colour');
    const scope = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .send({ login: 'x-bad-scope', password: 'password-123', available_scopes: ['root.everything'] });
    expect(scope.status).toBe(400);
    expect(scope.body.errors[0].field).toMatch(/^available_scopes/);
    const missing = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .send({ name: 'no login' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['login', 'password']);
  });

  test('a partner cannot grant scopes it does not hold', async () => {
    const p = await newPartner({ scopes: ['partners.manage', 'countries.read'] });
    const res = await http()
      .post(`${API}/partners`)
      .set(...p.auth)
      .send({ login: `g-${Date.now()}`, password: 'password-123', available_scopes: ['storage.manage'] });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('object validation error');
    expect(res.body.errors[0].field).toBe('available_scopes');
  });

  test('another partner is a 404', async () => {
    const a = await newPartner({ scopes: ['partners.manage'] });
    const b = await newPartner();
    const res = await http()
      .get(`${API}/partners/${b.partner_sid}`)
      .set(...a.auth);
    expect(res.status).toBe(404);
  });
});
