/**
 * Two gateway replicas with a long credential cache over one bus and one identity service: a token
 * revoked, narrowed or a partner suspended through one replica stops working on the other at once,
 * not after AUTH_CACHE_MS.
 */
import { Subjects, unwrapReply } from '@patchbay/contracts';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type BlobStore,
  type Stoppable,
} from '@patchbay/platform';
import { startIdentityService } from '@patchbay/identity';
import { startGateway } from '../../src/start';

const unusedBlobs = {} as BlobStore;
const logger = createLogger({ name: 'revocation-test', level: 'silent' });
const CACHE_MS = 300_000;

let hub: ReturnType<typeof MemoryBus.hub>;
let identity: Stoppable;
let docs: SqliteDocStore;
const gateways: Array<Stoppable & { port: number }> = [];
const buses: MemoryBus[] = [];
let admin: { login: string; password: string; token: string; partnerSid: string };

const bus = () => {
  const b = new MemoryBus(hub);
  buses.push(b);
  return b;
};
const url = (replica: number, path: string) => `http://127.0.0.1:${gateways[replica].port}/core/v2${path}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const basic = (login: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
});

async function issueToken(
  login: string,
  password: string,
  scopes?: string,
): Promise<{ access_token: string; token_sid: string }> {
  const form = new URLSearchParams({
    grant_type: 'password',
    username: login,
    password,
    ...(scopes ? { scope: scopes } : {}),
  });
  const res = await fetch(url(0, '/oauth/token'), { method: 'POST', body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; token_sid: string };
}

beforeAll(async () => {
  hub = MemoryBus.hub();
  docs = new SqliteDocStore();
  identity = await startIdentityService({
    bus: bus(),
    docs,
    blobs: unusedBlobs,
    logger,
    metrics: createMetricsRegistry('identity-test'),
  });
  for (let i = 0; i < 2; i++) {
    gateways.push(
      await startGateway(
        { bus: bus(), blobs: unusedBlobs, logger, metrics: createMetricsRegistry(`gateway-test-${i}`) },
        {
          baseUrl: 'http://api.test/core/v2',
          storageUrl: 'http://files.test',
          jsonBodyLimit: 1_048_576,
          authCacheMs: CACHE_MS,
          busTimeoutMs: 5000,
        },
        0,
      ),
    );
  }
  const boot = unwrapReply<{ partner: { partner_sid: string }; access_token: string }>(
    await buses[0].request(Subjects.identity.bootstrap, {
      login: 'admin',
      password: 'admin-password-1',
      token: 'admin-token-revocation-test',
    }),
  );
  admin = {
    login: 'admin',
    password: 'admin-password-1',
    token: 'admin-token-revocation-test',
    partnerSid: boot.partner.partner_sid,
  };
});

afterAll(async () => {
  for (const g of gateways) await g.stop();
  await identity.stop();
  for (const b of buses) await b.close();
  await docs.close();
});

test('a token revoked through one replica is refused by the other at once', async () => {
  const t = await issueToken(admin.login, admin.password);
  // Both replicas have checked (and cached) it.
  for (const r of [0, 1])
    expect((await fetch(url(r, '/oauth/whoami'), { headers: bearer(t.access_token) })).status).toBe(200);
  const revoke = await fetch(url(0, '/oauth/revoke'), {
    method: 'POST',
    headers: bearer(t.access_token),
    body: new URLSearchParams({ token: t.access_token }),
  });
  expect(revoke.status).toBe(204);
  const other = await fetch(url(1, '/oauth/whoami'), { headers: bearer(t.access_token) });
  expect(other.status).toBe(401);
  // Another token of the same partner keeps working (only the revoked one was forgotten).
  expect((await fetch(url(1, '/oauth/whoami'), { headers: bearer(admin.token) })).status).toBe(200);
});

test('scopes taken from a token through one replica are gone on the other at once', async () => {
  const t = await issueToken(admin.login, admin.password);
  expect((await fetch(url(1, '/oauth/tokens'), { headers: bearer(t.access_token) })).status).toBe(200);
  const patch = await fetch(url(0, `/oauth/tokens/${t.token_sid}`), {
    method: 'PATCH',
    headers: { ...bearer(admin.token), 'content-type': 'application/json' },
    body: JSON.stringify({ scopes: ['endpoints.read'] }),
  });
  expect(patch.status).toBe(200);
  expect((await fetch(url(1, '/oauth/tokens'), { headers: bearer(t.access_token) })).status).toBe(403);
});

test('a partner suspended through one replica is locked out of the other at once (tokens and Basic)', async () => {
  const create = await fetch(url(0, '/partners'), {
    method: 'POST',
    headers: { ...bearer(admin.token), 'content-type': 'application/json' },
    body: JSON.stringify({ login: `child-${Date.now()}`, password: 'child-password-1', name: 'child' }),
  });
  expect(create.status).toBe(200);
  const child = (await create.json()) as { partner_sid: string; login: string };
  const t = await issueToken(child.login, 'child-password-1');
  expect((await fetch(url(1, '/oauth/whoami'), { headers: bearer(t.access_token) })).status).toBe(200);
  expect((await fetch(url(1, '/oauth/whoami'), { headers: basic(child.login, 'child-password-1') })).status).toBe(200);
  const disable = await fetch(url(0, `/partners/${child.partner_sid}`), {
    method: 'PATCH',
    headers: { ...bearer(admin.token), 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'suspended' }),
  });
  expect(disable.status).toBe(200);
  expect((await fetch(url(1, '/oauth/whoami'), { headers: bearer(t.access_token) })).status).toBe(401);
  expect((await fetch(url(1, '/oauth/whoami'), { headers: basic(child.login, 'child-password-1') })).status).toBe(401);
});
