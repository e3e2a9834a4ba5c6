import { connect, headers, type NatsConnection } from 'nats';
import { ok, UnavailableError } from '@patchbay/contracts';
import { BusPayloadError } from '../../src/bus/bus-errors';
import { CHUNKED_HEADER } from '../../src/bus/large-messages';
import { BODY_BUCKET } from '../../src/bus/nats-large';
import { NatsBus } from '../../src/bus/nats-bus';
import { startNatsServer, type NatsServerHandle } from '../../src/testing/nats-server';
import { bigText, describeLargeMessageContract } from './bus-contract-large';
import { eventually } from './bus-test-kit';

// A nats-server with its default max_payload (1 MiB), as the distributed mode runs it.
describeLargeMessageContract('NatsBus', async () => {
  const server = await startNatsServer();
  return {
    connect: (opts) => NatsBus.connect({ url: server.url, name: 'large', ...opts }),
    teardown: () => server.stop(),
  };
});

describe('NatsBus — chunks that never arrive', () => {
  let server: NatsServerHandle;
  let raw: NatsConnection;
  const buses: NatsBus[] = [];
  beforeAll(async () => {
    server = await startNatsServer();
    raw = await connect({ servers: server.url });
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await raw.close();
    await server.stop();
  });
  const bus = async () => {
    const b = await NatsBus.connect({ url: server.url });
    buses.push(b);
    return b;
  };

  test('the server announces 1 MiB, so a 2 MB message could not travel whole', () => {
    expect(raw.info?.max_payload).toBe(1024 * 1024);
  });

  test('a request whose chunks are gone is answered at once: 503 with Retry-After, a chunk is gone', async () => {
    const svc = await bus();
    let handled = 0;
    await svc.serve('svc.lost.thing.get', 'lost', async () => ok(++handled));
    const h = headers();
    // Announces 3 chunks on a subject nobody serves: the sender "died" after sending the request.
    h.set(CHUNKED_HEADER, '_INBOX.gone 3000000 3');
    const started = Date.now();
    const msg = await raw.request('svc.lost.thing.get', new Uint8Array(0), { headers: h, timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(3000);
    const reply = JSON.parse(new TextDecoder().decode(msg.data)) as {
      status: number;
      error: { message: string };
      retry_after?: number;
    };
    expect(reply.status).toBe(503);
    expect(reply.retry_after).toBe(1);
    expect(reply.error.message).toMatch(/chunk 1 of 3 is gone/);
    expect(handled).toBe(0);
  });

  test('a reply whose chunks are gone fails the request at once with a 503, not a 500 or a timeout', async () => {
    const client = await bus();
    const sub = raw.subscribe('svc.lostreply.thing.get', {
      callback: (_err, m) => {
        const h = headers();
        h.set(CHUNKED_HEADER, '_INBOX.gone-too 2500000 3');
        m.respond(new Uint8Array(0), { headers: h });
      },
    });
    await raw.flush();
    const started = Date.now();
    const err = await client.request('svc.lostreply.thing.get', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    sub.unsubscribe();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err).not.toBeInstanceOf(BusPayloadError);
    expect((err as UnavailableError).retryAfterSeconds).toBe(1);
    expect((err as Error).message).toMatch(/reply of svc\.lostreply\.thing\.get: chunk 1 of 3 is gone/);
  });

  test("a large job's body leaves the object store once the job is acknowledged", async () => {
    const [pub, worker] = [await bus(), await bus()];
    const seen: number[] = [];
    await worker.work('job.bodies.run', 'runners', async (p) => {
      seen.push((p as { text: string }).text.length);
    });
    await pub.enqueue('job.bodies.run', { text: bigText(2 * 1024 * 1024) });
    await eventually(() => expect(seen).toEqual([2 * 1024 * 1024]), 15_000);
    const os = await raw.jetstream().views.os(BODY_BUCKET);
    await eventually(async () => {
      const left = (await os.list()).filter((o) => !o.deleted);
      expect(left).toEqual([]);
    }, 10_000);
  }, 30_000);
});
