import { NotFoundError, ok, TimeoutError, UnavailableError, unwrapReply, type BusReply } from '@patchbay/contracts';
import type { MessageContext } from '../../src/bus/port';
import { describeEventContract } from './bus-contract-events';
import { describeJobContract } from './bus-contract-jobs';
import { describeJobDrainContract } from './bus-contract-job-drain';
import {
  captureLogger,
  consistently,
  deferred,
  eventually,
  useBusMedium,
  type BusKit,
  type BusMedium,
} from './bus-test-kit';

export type { BusMedium };

/**
 * The behaviour every Bus adapter must have, run by each adapter's test against its own medium
 * (`connect` opens another bus on it — another process on the same server). Request/reply here;
 * events, jobs and stopping workers in their own files.
 */
export function describeBusContract(name: string, setup: () => Promise<BusMedium>): void {
  describe(`${name} — Bus contract`, () => {
    const kit = useBusMedium(setup);
    describe('request/reply', () => describeRequestContract(kit));
    describe('events', () => describeEventContract(kit));
    describe('jobs', () => describeJobContract(kit));
    describe('jobs when their worker stops', () => describeJobDrainContract(kit));
  });
}

function describeRequestContract(kit: BusKit): void {
  const subject = () => `svc.${kit.id()}.thing.get`;

  test('the handler gets a JSON copy of the payload and the request ID; its reply comes back as-is', async () => {
    const [server, client] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const seen: Array<{ payload: unknown; ctx: MessageContext }> = [];
    await server.serve(s, 'things', async (payload, ctx) => {
      seen.push({ payload, ctx });
      return ok({ echo: payload, at: new Date(0) }, 201);
    });
    const reply = await client.request(s, { when: new Date(0), gone: undefined, n: 1 }, { requestId: 'req-1' });
    const sent = { when: '1970-01-01T00:00:00.000Z', n: 1 };
    expect(reply).toStrictEqual({ status: 201, body: { echo: sent, at: '1970-01-01T00:00:00.000Z' } });
    expect(seen[0].payload).toStrictEqual(sent);
    expect(seen[0].ctx).toEqual({ subject: s, requestId: 'req-1', replied: expect.any(Promise) });
    await client.request(s, undefined);
    expect(seen[1].payload).toBeUndefined();
    expect(seen[1].ctx.requestId).toBeUndefined();
  });

  test('members of one queue group share the requests, each answered once', async () => {
    const [a, b, client] = [await kit.bus(), await kit.bus(), await kit.bus()];
    const s = subject();
    const served = { a: [] as unknown[], b: [] as unknown[] };
    await a.serve(s, 'things', async (p) => {
      served.a.push(p);
      return ok('a');
    });
    await b.serve(s, 'things', async (p) => {
      served.b.push(p);
      return ok('b');
    });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => client.request(s, i)));
    expect(served.a.length).toBeGreaterThan(0);
    expect(served.b.length).toBeGreaterThan(0);
    expect([...served.a, ...served.b].sort((x, y) => Number(x) - Number(y))).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect(replies.filter((r) => 'body' in r && r.body === 'a')).toHaveLength(served.a.length);
  });

  test('servers in different queue groups each get a copy; one reply is used', async () => {
    const [a, b, client] = [await kit.bus(), await kit.bus(), await kit.bus()];
    const s = subject();
    const served: string[] = [];
    await a.serve(s, 'one', async () => {
      served.push('one');
      return ok(1);
    });
    await b.serve(s, 'two', async () => {
      served.push('two');
      return ok(2);
    });
    expect([1, 2]).toContain(((await client.request(s, {})) as { body: unknown }).body);
    await eventually(() => expect(served.sort()).toEqual(['one', 'two']));
  });

  test('no answer in time rejects with TimeoutError (504)', async () => {
    const [server, client] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const release = deferred();
    await server.serve(s, 'things', async () => {
      await release.promise;
      return ok(null);
    });
    const started = Date.now();
    const err = await client.request(s, {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ status: 504 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    release.resolve();
  });

  test('nobody serving the subject rejects promptly with UnavailableError (503)', async () => {
    const client = await kit.bus();
    const started = Date.now();
    const err = await client.request(subject(), {}, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err).toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('a thrown ApiError becomes its status, code and body; anything else a logged, generic 500', async () => {
    const { logger, lines } = captureLogger();
    const [server, client] = [await kit.bus({ logger }), await kit.bus()];
    const [missing, broken] = [subject(), subject()];
    await server.serve(missing, 'things', async () => {
      throw new NotFoundError({ code: 'blob_not_found', message: 'no such thing' });
    });
    await server.serve(broken, 'things', async () => {
      throw new Error('database password leaked');
    });
    const answer = await client.request(missing, {});
    expect(answer).toStrictEqual({
      status: 404,
      error: { message: 'no such thing', errors: [] },
      code: 'blob_not_found',
    });
    // The caller gets the typed error back with its specific code.
    const thrown = await Promise.resolve(answer)
      .then(unwrapReply)
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(NotFoundError);
    expect(thrown).toMatchObject({ code: 'blob_not_found', status: 404, message: 'no such thing' });
    const reply: BusReply = await client.request(broken, {}, { requestId: 'req-500' });
    expect(reply).toStrictEqual({
      status: 500,
      error: { message: 'internal server error', errors: [] },
      code: 'internal',
    });
    const logged = lines.find((l) => l.level === 50 && JSON.stringify(l.err).includes('database password leaked'));
    expect(logged).toMatchObject({ subject: broken, requestId: 'req-500' });
  });

  test('a reply that is not a BusReply envelope rejects with a 502', async () => {
    const [server, client] = [await kit.bus(), await kit.bus()];
    const s = subject();
    await server.serve(s, 'things', async () => ({ no: 'envelope' }) as unknown as BusReply);
    await expect(client.request(s, {})).rejects.toMatchObject({ status: 502 });
  });

  test('stop() answers the requests in flight, then takes no more', async () => {
    const [server, client] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const [started, release] = [deferred(), deferred()];
    const sub = await server.serve(s, 'things', async () => {
      started.resolve();
      await release.promise;
      return ok('done');
    });
    const inFlight = client.request(s, {});
    await started.promise;
    let stopped = false;
    const stopping = sub.stop().then(() => {
      stopped = true;
    });
    await consistently(() => expect(stopped).toBe(false), 100); // stop() waits for the handler in flight
    release.resolve();
    await stopping;
    await expect(inFlight).resolves.toStrictEqual(ok('done'));
    await expect(client.request(s, {})).rejects.toBeInstanceOf(UnavailableError);
  });

  test('close() waits for handlers in flight; a closed bus refuses to send', async () => {
    const [server, client] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const [started, release] = [deferred(), deferred()];
    await server.serve(s, 'things', async () => {
      started.resolve();
      await release.promise;
      return ok('late');
    });
    const inFlight = client.request(s, {});
    await started.promise;
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    await consistently(() => expect(closed).toBe(false), 100); // close() waits for the handler in flight
    release.resolve();
    await closing;
    await expect(inFlight).resolves.toStrictEqual(ok('late'));
    await expect(server.request(s, {})).rejects.toBeInstanceOf(UnavailableError);
    await expect(server.publish(`evt.${kit.id()}.closed`, {})).rejects.toBeInstanceOf(UnavailableError);
  });
}
