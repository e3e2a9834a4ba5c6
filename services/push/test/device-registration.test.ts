/**
 * `POST /push/devices` with reuse, driven through the push service's bus subject with requests
 * truly in flight together (no gateway in between to space them out): one registration (partner,
 * type, environment, token) ends as one device however many register it at once — a second one
 * would receive every notification twice. Two service instances on one store stand for two push
 * replicas sharing MongoDB, and every store call is delayed by 0–3 ms, as a networked database's
 * round trip would be (the in-memory store alone answers too fast for registrations to overlap).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Subjects, type BusReply } from '@patchbay/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type BlobStore,
  type Collection,
  type Doc,
  type DocStore,
  type Stoppable,
} from '@patchbay/platform';
import { loadPushSettings } from '../src/config';
import { openPushRepo, type PushRepo } from '../src/repo';
import { startPushService } from '../src/service';
import type { ApiJson } from '../../../tests/support/api-json';

const PARTNER = randomUUID();
const KEY = randomBytes(32).toString('base64');

/** The same store, each call after a random delay of up to `maxMs` (a network round trip). */
function withLatency(store: DocStore, maxMs: number): DocStore {
  return {
    collection<T extends object = Doc>(name: string): Collection<T> {
      const inner = store.collection<T>(name);
      return new Proxy(inner, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            await sleep(Math.random() * maxMs); // the latency is the point: it interleaves the writers
            return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          };
        },
      });
    },
    close: () => store.close(),
  };
}

let docs: SqliteDocStore;
let repo: PushRepo;
let hub: ReturnType<typeof MemoryBus.hub>;
let bus: MemoryBus;
const services: Stoppable[] = [];
let appSid: string;

const call = (
  subject: string,
  body: unknown,
  params: Record<string, string> = {},
  query: Record<string, string> = {},
): Promise<BusReply> =>
  bus.request(
    subject,
    {
      principal: { partner_sid: PARTNER, login: 'test', scopes: [], token_sid: null },
      params,
      query,
      body,
      url: 'http://api.test/core/v2/push/devices',
    },
    { timeoutMs: 5000 },
  );
const body = (r: BusReply): ApiJson => {
  if (!('body' in r) || r.status >= 300) throw new Error(`expected success, got ${JSON.stringify(r)}`);
  return r.body as ApiJson;
};

beforeAll(async () => {
  hub = MemoryBus.hub();
  bus = new MemoryBus(hub);
  docs = new SqliteDocStore();
  repo = await openPushRepo(docs);
  for (let i = 0; i < 2; i++) {
    services.push(
      await startPushService(
        {
          bus: new MemoryBus(hub),
          docs: withLatency(docs, 3),
          blobs: {} as BlobStore,
          logger: createLogger({ name: 'push-test', level: 'silent' }),
          metrics: createMetricsRegistry(`push-test-${i}`),
        },
        loadPushSettings({ PUSH_CREDENTIALS_KEY: KEY, BUS_TIMEOUT_MS: '5000' }),
      ),
    );
  }
  appSid = body(await call(Subjects.push.applicationCreate, { name: 'registrations' })).application_sid;
});
afterAll(async () => {
  for (const s of services) await s.stop();
  await bus.close();
  await docs.close();
});

const register = (token: string, query: Record<string, string> = {}) =>
  call(Subjects.push.deviceCreate, { application_sid: appSid, type: 'android', token }, {}, query);

test('20 registrations of one token at once: one device, every answer names it', async () => {
  const token = `race-${randomUUID()}`;
  const answers = (await Promise.all(Array.from({ length: 20 }, () => register(token)))).map(body);
  expect(new Set(answers.map((a) => a.device_sid)).size).toBe(1);
  expect(await repo.devices.countDocuments({ token })).toBe(1);
});

test(
  'after the device is deleted, or moved to another token, the next ' + 'racing registrations again make exactly one',
  async () => {
    const token = `again-${randomUUID()}`;
    const first = body(await register(token)).device_sid as string;
    expect((await call(Subjects.push.deviceDelete, {}, { device_sid: first })).status).toBe(204);
    const afterDelete = (await Promise.all(Array.from({ length: 10 }, () => register(token)))).map(body);
    const second = afterDelete[0].device_sid as string;
    expect(new Set(afterDelete.map((a) => a.device_sid))).toEqual(new Set([second]));
    expect(second).not.toBe(first);
    // The device now registers another token: the old registration is free for a new device.
    body(await call(Subjects.push.deviceUpdate, { token: `${token}-moved` }, { device_sid: second }));
    const afterMove = (await Promise.all(Array.from({ length: 10 }, () => register(token)))).map(body);
    expect(new Set(afterMove.map((a) => a.device_sid)).size).toBe(1);
    expect(afterMove[0].device_sid).not.toBe(second);
    expect(await repo.devices.countDocuments({ token })).toBe(1);
  },
);

test('a claim whose device was never written (its writer died) is taken over after a short wait', async () => {
  const token = `orphan-${randomUUID()}`;
  const ghost = randomUUID();
  // What a replica dying between claiming and writing would leave: a claim with no device.
  await repo.deviceKeys.insertOne({
    key: `${PARTNER}|android|production|${createHash('sha256').update(token).digest('hex')}`,
    device_sid: ghost,
    application_sid: appSid,
  });
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 5 }, () => register(token)));
  expect(Date.now() - started).toBeLessThan(4000);
  const sids = new Set(answers.map((a) => body(a).device_sid));
  expect(sids.size).toBe(1);
  expect(sids.has(ghost)).toBe(false);
  expect(await repo.devices.countDocuments({ token })).toBe(1);
});

test('reuse=false still makes a new device every time', async () => {
  const token = `many-${randomUUID()}`;
  const answers = (await Promise.all(Array.from({ length: 5 }, () => register(token, { reuse: 'false' })))).map(body);
  expect(new Set(answers.map((a) => a.device_sid)).size).toBe(5);
});
