/**
 * Brute force: repeated failed logins (HTTP Basic or the password grant) for one login, or from
 * one client address, are slowed and then refused for a while with 429 and Retry-After — the right
 * password too, while it lasts — and other logins and addresses are untouched. Each test speaks
 * from an address of its own (X-Forwarded-For, trusted from loopback), so the shared instance's
 * own address is never locked. The end of a lock is tested with short locks in
 * services/gateway/test/auth/login-throttle.test.ts.
 */
import { randomInt } from 'node:crypto';
import { API, http, newPartner } from '../harness/api';

const address = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
const basicAs = (from: string, login: string, password: string) =>
  http().get(`${API}/oauth/whoami`).auth(login, password).set('X-Forwarded-For', from);
const grantAs = (from: string, username: string, password: string) =>
  http()
    .post(`${API}/oauth/token`)
    .type('form')
    .set('X-Forwarded-For', from)
    .send({ grant_type: 'password', username, password });

function expectLocked(
  res: { status: number; headers: Record<string, string>; body: { message: string; errors: Array<{ field: string }> } },
  maxSeconds: number,
): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(res.body).toMatchObject({ message: 'too many failed logins', errors: [{ field: 'login' }] });
}

test(
  'five failed logins lock that login (Basic and password grant alike) ' + 'for a minute; other logins are untouched',
  async () => {
    const victim = await newPartner();
    const other = await newPartner();
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (i % 2 ? await basicAs(from, victim.login, `guess-${i}`) : await grantAs(from, victim.login, `guess-${i}`))
          .status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expectLocked(await basicAs(from, victim.login, victim.password), 60);
    expectLocked(await grantAs(address(), victim.login, victim.password), 60);
    // Its existing token still works (tokens are not passwords), and so do other logins.
    expect(
      (
        await http()
          .get(`${API}/oauth/whoami`)
          .set(...victim.auth)
      ).status,
    ).toBe(200);
    expect((await basicAs(from, other.login, other.password)).status).toBe(200);
  },
);

test(
  'failures from one address over many logins lock that address; the ' + 'same logins from another address work',
  async () => {
    const p = await newPartner();
    const from = address();
    for (let i = 0; i < 30; i++)
      expect((await grantAs(from, `nobody-${i}-${randomInt(1e9)}`, 'guess')).status).toBe(401);
    expectLocked(await grantAs(from, p.login, p.password), 300);
    expectLocked(await basicAs(from, p.login, p.password), 300);
    expect((await grantAs(address(), p.login, p.password)).status).toBe(200);
  },
  60_000,
);

test('a login that fails repeatedly is answered more slowly; a success clears its count', async () => {
  const p = await newPartner();
  const from = address();
  const timed = async () => {
    const t = Date.now();
    const res = await basicAs(from, p.login, 'wrong');
    return { status: res.status, ms: Date.now() - t };
  };
  const first = await timed();
  const third = (await timed(), await timed());
  expect([first.status, third.status]).toEqual([401, 401]);
  expect(third.ms).toBeGreaterThanOrEqual(500);
  expect((await basicAs(from, p.login, p.password)).status).toBe(200);
  // Cleared: four more failures do not lock it (the fifth would).
  for (let i = 0; i < 4; i++) expect((await basicAs(from, p.login, 'wrong')).status).toBe(401);
  expect((await basicAs(from, p.login, p.password)).status).toBe(200);
});
