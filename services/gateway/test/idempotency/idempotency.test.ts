/**
 * Idempotency keys across gateway replicas and failures, on the in-process bus: the key records
 * are identity's, so a repeat on another replica replays what the first answered; an answer of 500
 * or more is not kept (a retry runs again once the service is back); a client that hangs up before
 * any answer leaves its key free for the retry. (The public behaviour in both run modes:
 * tests/api/idempotency.test.ts.)
 */
import http from 'node:http';
import { Subjects, unwrapReply } from '@patchbay/contracts';
import { createMetricsRegistry, type MemoryBus, type Stoppable } from '@patchbay/platform';
import { startIdentityService } from '@patchbay/identity';
import { startStorageService } from '@patchbay/storage';
import { startGateway } from '../../src/start';
import { until } from '../../../../tests/support/poll';
import { busWorld } from './bus-world';

const world = busWorld('idempotency');
const { logger, blobs, bus, docs } = world;
const metrics = createMetricsRegistry('gateway-idempotency');
const ports: number[] = [];
let token = '';
let partnerSid = '';
let storage: Stoppable | undefined;
/** Identity's bus: the tests ask services directly through it. */
let direct: MemoryBus;

beforeAll(async () => {
  direct = bus();
  world.started(await startIdentityService({ bus: direct, docs: docs(), blobs, logger, metrics }));
  for (let i = 0; i < 2; i++) {
    const gateway = await startGateway(
      { bus: bus(), blobs, logger, metrics: createMetricsRegistry(`gateway-${i}`) },
      {
        baseUrl: 'http://api.test/core/v2',
        storageUrl: 'http://files.test',
        jsonBodyLimit: 1_048_576,
        authCacheMs: 5000,
        busTimeoutMs: 2000,
      },
      0,
    );
    ports.push(world.started(gateway).port);
  }
  const boot = unwrapReply<{ access_token: string; partner: { partner_sid: string } }>(
    await direct.request(Subjects.identity.bootstrap, {}),
  );
  token = boot.access_token;
  partnerSid = boot.partner.partner_sid;
});

afterAll(() => world.close());

/** Storage, started by the first test that needs it (the first test runs without it). */
async function ensureStorage(): Promise<void> {
  storage ??= world.started(
    await startStorageService(
      { bus: bus(), docs: docs(), blobs, logger, metrics },
      { storageUrl: 'http://files.test', uploadStaleMs: 3_600_000, sweepIntervalMs: 3_600_000, busTimeoutMs: 2000 },
    ),
  );
}

const post = (replica: number, pathAndQuery: string, key: string, body: string, type = 'application/json') =>
  fetch(`http://127.0.0.1:${ports[replica]}/core/v2${pathAndQuery}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': key },
    body,
  });

test('a 503 is not kept: the retry runs once the service is back, and the other replica replays it', async () => {
  const body = JSON.stringify({ name: 'kept-once' });
  const down = await post(0, '/storage/containers', 'K-503', body);
  expect(down.status).toBe(503);
  await ensureStorage();
  const ran = await post(1, '/storage/containers', 'K-503', body);
  expect(ran.status).toBe(200);
  expect(ran.headers.get('idempotent-replayed')).toBeNull();
  const created: unknown = await ran.json();
  const replayed = await post(0, '/storage/containers', 'K-503', body);
  expect(replayed.status).toBe(200);
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  expect(await replayed.json()).toEqual(created);
});

test('a client that hangs up in the middle of its upload leaves the key free: the retry runs', async () => {
  await ensureStorage();
  const container = unwrapReply<{ container_sid: string }>(
    await direct.request(Subjects.storage.containerDefault, { partner_sid: partnerSid }),
  );
  const query = `/storage/files?container_sid=${container.container_sid}&name=retried.bin`;
  await new Promise<void>((resolve) => {
    const req = http.request({
      port: ports[0],
      path: `/core/v2${query}`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(10e6),
        'idempotency-key': 'K-gone',
      },
    });
    req.on('error', () => resolve());
    let n = 0;
    const t = setInterval(() => {
      req.write(Buffer.alloc(65536, 1));
      if (++n > 8) {
        clearInterval(t);
        req.destroy();
        resolve();
      }
    }, 5);
  });
  // The key is released as the gateway sees the client gone: until then a repeat is a 409.
  const data = Buffer.alloc(1000, 2);
  const retry = await until(
    'a repeat that is not a 409',
    10_000,
    async () => {
      const res = await post(1, query, 'K-gone', data.toString('latin1'), 'application/octet-stream');
      return res.status === 409 ? undefined : res;
    },
    { everyMs: 50 },
  );
  expect(retry.status).toBe(201);
  expect(retry.headers.get('idempotent-replayed')).toBeNull();
  expect(await retry.json()).toMatchObject({ name: 'retried.bin', file_bytes: 1000 });
});
