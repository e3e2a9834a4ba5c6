/**
 * Failed logins are counted by identity, so two gateway replicas share the count: failures spread
 * over both lock the login on both. The lock answers 429 with Retry-After — the right password too —
 * and ends: then the right password works again. Short lock settings keep the test quick.
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
import { identitySettings, startIdentityService } from '@patchbay/identity';
import { startGateway } from '../../src/start';

const logger = createLogger({ name: 'throttle-test', level: 'silent' });
const LOCK_S = 2;
let hub: ReturnType<typeof MemoryBus.hub>;
let identity: Stoppable;
let docs: SqliteDocStore;
const gateways: Array<Stoppable & { port: number }> = [];
const buses: MemoryBus[] = [];

const bus = () => {
  const b = new MemoryBus(hub);
  buses.push(b);
  return b;
};
// This test's own client address, so the address counter (5 here) is not what locks it.
const basic = (login: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
  'x-forwarded-for': '192.0.2.1',
});
const whoami = (replica: number, headers: Record<string, string>) =>
  fetch(`http://127.0.0.1:${gateways[replica].port}/core/v2/oauth/whoami`, { headers });
const grant = (
  replica: number,
  username: string,
  password: string,
  headers: Record<string, string> = { 'x-forwarded-for': '192.0.2.1' },
) =>
  fetch(`http://127.0.0.1:${gateways[replica].port}/core/v2/oauth/token`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });

beforeAll(async () => {
  hub = MemoryBus.hub();
  docs = new SqliteDocStore();
  const settings = identitySettings({
    LOGIN_MAX_FAILURES: 3,
    LOGIN_LOCK_SECONDS: LOCK_S,
    ADDRESS_MAX_FAILURES: 5,
    ADDRESS_LOCK_SECONDS: LOCK_S,
    LOGIN_FAILURE_WINDOW_SECONDS: 60,
    IDEMPOTENCY_KEY_HOURS: 24,
  });
  identity = await startIdentityService(
    { bus: bus(), docs, blobs: {} as BlobStore, logger, metrics: createMetricsRegistry('identity-throttle') },
    settings,
  );
  for (let i = 0; i < 2; i++) {
    gateways.push(
      await startGateway(
        { bus: bus(), blobs: {} as BlobStore, logger, metrics: createMetricsRegistry(`gateway-throttle-${i}`) },
        {
          baseUrl: 'http://api.test/core/v2',
          storageUrl: 'http://files.test',
          jsonBodyLimit: 1_048_576,
          authCacheMs: 0,
          busTimeoutMs: 5000,
          trustProxy: ['loopback'],
        },
        0,
      ),
    );
  }
  unwrapReply(await buses[0].request(Subjects.identity.bootstrap, { login: 'admin', password: 'admin-password-1' }));
});

afterAll(async () => {
  for (const g of gateways) await g.stop();
  await identity.stop();
  for (const b of buses) await b.close();
  await docs.close();
});

test(
  'failures over two replicas lock the login on both: 429 with ' +
    'Retry-After, the right password too, until the lock ends',
  async () => {
    expect((await whoami(0, basic('admin', 'wrong-1'))).status).toBe(401);
    // The second failure in a row is answered later (slowed); the third locks the login.
    const started = Date.now();
    expect((await grant(1, 'admin', 'wrong-2')).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await whoami(1, basic('admin', 'wrong-3'))).status).toBe(401);
    for (const res of [
      await whoami(0, basic('admin', 'admin-password-1')),
      await grant(1, 'admin', 'admin-password-1'),
      await whoami(1, basic('admin', 'wrong-4')),
    ]) {
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(LOCK_S);
      expect(await res.json()).toMatchObject({ message: 'too many failed logins', errors: [{ field: 'login' }] });
    }
    // The lock ends: the right password works again, and clears the count.
    await new Promise((r) => setTimeout(r, LOCK_S * 1000 + 100)); // the lock's own time (2 s here): a try would count
    expect((await whoami(0, basic('admin', 'admin-password-1'))).status).toBe(200);
    expect((await whoami(1, basic('admin', 'wrong-5'))).status).toBe(401);
    expect((await whoami(1, basic('admin', 'admin-password-1'))).status).toBe(200);
  },
);

test(
  'failures from one client address over many logins lock that address, ' +
    'not others; X-Forwarded-For is trusted from loopback',
  async () => {
    const attacker = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 5; i++) expect((await grant(i % 2, `nobody-${i}`, 'guess', attacker)).status).toBe(401);
    const locked = await grant(0, 'admin', 'admin-password-1', attacker);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await grant(1, 'admin', 'admin-password-1', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
    expect((await grant(1, 'admin', 'admin-password-1')).status).toBe(200);
  },
);
