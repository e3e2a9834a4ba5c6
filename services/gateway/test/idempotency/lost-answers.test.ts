/**
 * Idempotency keys when an answer is lost, on the in-process bus with a gateway whose bus calls a
 * test can hold (as a paused gateway or a slow service holds them) or lose on the way back:
 * - the service's answer lost on its way to the gateway (a bus timeout, NATS down): the gateway
 *   answers 504 and lets the key go, and the retry is answered what the write did — the service kept
 *   its answer under the key — not a second object (the chaos soak's endpoint "created twice");
 * - gone before its body was read (the request waited for authentication): the request is dropped,
 *   never run on an empty body nor claiming the key, so the client's retry runs it — the chaos soak's
 *   "422: this Idempotency-Key was used for a different request" after a gateway was paused;
 * - gone while its request runs: the key stays claimed until the request's answer, so a retry is a
 *   409 and then the replay, and the write is made once.
 */
import net from 'node:net';
import { Subjects, TimeoutError, unwrapReply } from '@patchbay/contracts';
import { createMetricsRegistry, type MemoryBus } from '@patchbay/platform';
import { startIdentityService } from '@patchbay/identity';
import { startStorageService } from '@patchbay/storage';
import { startGateway } from '../../src/start';
import { untilTrue } from '../../../../tests/support/poll';
import { busWorld } from './bus-world';

const world = busWorld('lost-answers');
const { logger, blobs, bus, docs } = world;
let token = '';
/** A gateway whose bus requests on a held subject wait for the test; and a plain one. */
let held: Awaited<ReturnType<typeof startGateway>>;
let plainPort = 0;

/** Subjects whose next reply is lost on its way back (the service has done the work). */
const lose = new Set<string>();

/** Subjects whose requests currently wait, and how many have arrived at the hold. */
const holds = new Map<string, { arrived: number; release: Promise<void>; open: () => void }>();
function hold(subject: string): { arrived: () => number; open: () => void } {
  let open = () => {};
  const release = new Promise<void>((resolve) => (open = resolve));
  const entry = { arrived: 0, release, open };
  holds.set(subject, entry);
  return { arrived: () => entry.arrived, open: () => (holds.delete(subject), open()) };
}
/** The held gateway's bus: a MemoryBus whose `request` waits on a held subject first. */
function holdingBus(inner: MemoryBus): MemoryBus {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'request')
        return async (...args: Parameters<MemoryBus['request']>) => {
          const entry = holds.get(args[0]);
          if (entry) {
            entry.arrived++;
            await entry.release;
          }
          const reply = await target.request(...args);
          if (lose.delete(args[0])) throw new TimeoutError({ message: `${args[0]}: the reply was lost` });
          return reply;
        };
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const settings = {
  baseUrl: 'http://api.test/core/v2',
  storageUrl: 'http://files.test',
  jsonBodyLimit: 1_048_576,
  authCacheMs: 5000,
  busTimeoutMs: 30_000,
};

beforeAll(async () => {
  const metrics = createMetricsRegistry('client-gone');
  const direct = bus();
  world.started(await startIdentityService({ bus: direct, docs: docs(), blobs, logger, metrics }));
  world.started(
    await startStorageService(
      { bus: bus(), docs: docs(), blobs, logger, metrics },
      { storageUrl: 'http://files.test', uploadStaleMs: 3_600_000, sweepIntervalMs: 3_600_000, busTimeoutMs: 2000 },
    ),
  );
  held = world.started(
    await startGateway({ bus: holdingBus(bus()), blobs, logger, metrics: createMetricsRegistry('held') }, settings, 0),
  );
  const plain = world.started(
    await startGateway({ bus: bus(), blobs, logger, metrics: createMetricsRegistry('plain') }, settings, 0),
  );
  plainPort = plain.port;
  const boot = unwrapReply<{ access_token: string; partner: { partner_sid: string } }>(
    await direct.request(Subjects.identity.bootstrap, {}),
  );
  token = boot.access_token;
  // Room for the containers the tests create beside the default one.
  const raised = await fetch(`http://127.0.0.1:${plainPort}/core/v2/partners/${boot.partner.partner_sid}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ attributes: { max_containers: '10' } }),
  });
  expect(raised.status).toBe(200);
});

afterAll(async () => {
  // A failed test may leave a request held: let it go, or the gateway's stop waits for it.
  for (const entry of holds.values()) entry.open();
  await world.close();
});

const createContainer = (key: string, body: string, port = plainPort) =>
  fetch(`http://127.0.0.1:${port}/core/v2/storage/containers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });

/** Sends a whole POST /storage/containers to the held gateway on a socket of its own, and returns the socket. */
async function sendAndKeep(key: string, body: string): Promise<net.Socket> {
  const socket = net.connect(held.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => {});
  socket.write(
    `POST /core/v2/storage/containers HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Idempotency-Key: ${key}\r\n\r\n${body}`,
  );
  return socket;
}

/** Hangs up, and waits until the held gateway has seen the connection close. */
async function hangUp(socket: net.Socket): Promise<void> {
  socket.destroy();
  await untilTrue(() => new Promise<boolean>((resolve) => held.server.getConnections((_err, n) => resolve(n === 0))), {
    what: 'the gateway sees the connection closed',
  });
}

const containersNamed = async (name: string) => {
  const res = await fetch(`http://127.0.0.1:${plainPort}/core/v2/storage/containers?limit=1000`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const page = (await res.json()) as { items: Array<{ name: string }> }; // the list envelope of the API
  return page.items.filter((c) => c.name === name).length;
};

/** Lets the event loop run what the released request does next (its handlers are synchronous up to a bus call). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('a client gone before its body was read: the request is dropped and the retry runs it', async () => {
  const auth = hold(Subjects.identity.authenticateToken);
  const begins = hold(Subjects.identity.idempotencyBegin);
  const body = JSON.stringify({ name: 'gone-before-body' });
  await hangUp(await untilArrived(await sendAndKeep('K-early', body), auth.arrived));
  auth.open();
  await turns(20);
  // Dropped before its key is claimed: it never asks identity for the key.
  expect(begins.arrived()).toBe(0);
  begins.open();
  const retry = await createContainer('K-early', body);
  expect(retry.status).toBe(200);
  expect(retry.headers.get('idempotent-replayed')).toBeNull();
  expect(await retry.json()).toMatchObject({ name: 'gone-before-body' });
  expect(await containersNamed('gone-before-body')).toBe(1);
});

test('a client gone while its request runs: the key stays claimed, the retry replays the one answer', async () => {
  const create = hold(Subjects.storage.containerCreate);
  const body = JSON.stringify({ name: 'gone-while-running' });
  await hangUp(await untilArrived(await sendAndKeep('K-running', body), create.arrived));
  const meanwhile = await createContainer('K-running', body);
  expect(meanwhile.status).toBe(409);
  expect(meanwhile.headers.get('retry-after')).not.toBeNull();
  create.open();
  let retry = await createContainer('K-running', body);
  await untilTrue(
    async () => {
      if (retry.status !== 409) return true;
      retry = await createContainer('K-running', body);
      return retry.status !== 409;
    },
    { what: 'the first request answers' },
  );
  expect(retry.status).toBe(200);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(await containersNamed('gone-while-running')).toBe(1);
});

/** Waits until the held gateway's request has reached the hold, then hands the socket back. */
async function untilArrived(socket: net.Socket, arrived: () => number): Promise<net.Socket> {
  await untilTrue(() => arrived() === 1, { what: 'the request reaches the held bus call' });
  return socket;
}

test('an answer lost behind the gateway: the retry gets what the write did, not a second one', async () => {
  const body = JSON.stringify({ name: 'answer-lost' });
  lose.add(Subjects.storage.containerCreate);
  const lost = await createContainer('K-lost', body, held.port);
  expect(lost.status).toBe(504);
  expect(await containersNamed('answer-lost')).toBe(1);
  // The 504 is not kept: the retry (on either replica) runs, and storage answers the first write's answer.
  const retry = await createContainer('K-lost', body);
  expect(retry.status).toBe(200);
  const created = (await retry.json()) as { container_sid: string; name: string }; // Create Container's answer
  expect(created.name).toBe('answer-lost');
  expect(await containersNamed('answer-lost')).toBe(1);
  // The gateway keeps that answer like any other: a later repeat is its replay.
  const again = await createContainer('K-lost', body, held.port);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(await again.json()).toEqual(created);
  // Another request under the key is still refused, by the gateway's record.
  const other = await createContainer('K-lost', JSON.stringify({ name: 'something-else' }));
  expect(other.status).toBe(422);
});
