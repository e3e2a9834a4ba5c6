import { randomBytes } from 'node:crypto';
import { ok, TimeoutError } from '@patchbay/contracts';
import { BusPayloadError } from '../../src/bus/bus-errors';
import { deferred, eventually, useBusMedium, type BusKit, type BusMedium } from './bus-test-kit';

const MiB = 1024 * 1024;

/** A JSON-safe string of about `bytes` bytes, different every call, so a misplaced chunk shows. */
export function bigText(bytes: number): string {
  return randomBytes(Math.ceil((bytes * 3) / 4))
    .toString('base64')
    .slice(0, bytes);
}

/**
 * Messages of any size, run by each adapter against a medium whose max_payload is NATS's default
 * (1 MiB): a real nats-server, or a MemoryHub with `maxPayload`. Without the chunked and stored
 * paths, every one of these fails (NATS refuses the message; the hub does the same).
 */
export function describeLargeMessageContract(name: string, setup: () => Promise<BusMedium>): void {
  describe(`${name} — messages larger than max_payload (1 MiB)`, () => {
    const kit = useBusMedium(setup);
    describeLarge(kit);
  });
}

function describeLarge(kit: BusKit): void {
  const subject = () => `svc.${kit.id()}.thing.get`;

  test('a 5 MB request and a 5 MB reply arrive whole', async () => {
    const [server, client] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const sent = bigText(5 * MiB);
    const back = bigText(5 * MiB);
    let got = '';
    await server.serve(s, 'things', async (p) => {
      got = (p as { text: string }).text;
      return ok({ text: back });
    });
    const reply = await client.request(s, { text: sent }, { timeoutMs: 20_000 });
    expect(got === sent).toBe(true);
    expect(reply.status).toBe(200);
    expect((reply as { body: { text: string } }).body.text === back).toBe(true);
  });

  test('concurrent large requests and replies, interleaved over two servers, each get their own bytes', async () => {
    const [a, b, client] = [await kit.bus(), await kit.bus(), await kit.bus()];
    const s = subject();
    const echo = async (p: unknown) => ok({ echo: p });
    await a.serve(s, 'things', echo);
    await b.serve(s, 'things', echo);
    const sent = Array.from({ length: 6 }, (_, i) => ({ i, text: bigText(2 * MiB + i * 100_000) }));
    const replies = await Promise.all(sent.map((p) => client.request(s, p, { timeoutMs: 30_000 })));
    replies.forEach((r, i) => {
      const echoed = (r as { body: { echo: { i: number; text: string } } }).body.echo;
      expect(echoed.i).toBe(i);
      expect(echoed.text === sent[i].text).toBe(true);
    });
  }, 60_000);

  test("a handler's `replied` settles once its reply in chunks has been taken, not when it returns", async () => {
    const [server, client] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const replied: Array<Promise<void> | undefined> = [];
    await server.serve(s, 'things', async (p, ctx) => {
      replied.push(ctx.replied);
      return ok({ text: p === 'big' ? bigText(3 * MiB) : 'small' });
    });
    let taken = false;
    let settledEarly = false;
    const big = client.request(s, 'big', { timeoutMs: 20_000 }).then((r) => {
      taken = true;
      return r;
    });
    await eventually(() => expect(replied).toHaveLength(1));
    void replied[0]!.then(() => {
      settledEarly = !taken;
    });
    expect((await big).status).toBe(200);
    await replied[0];
    expect(settledEarly).toBe(false);
    // A reply in one message has left as soon as it is sent.
    await client.request(s, 'small');
    await expect(replied[1]).resolves.toBeUndefined();
  });

  test('a 3 MB event reaches its durable subscriber, and a 3 MB job its worker', async () => {
    const [pub, sub] = [await kit.bus(), await kit.bus()];
    const id = kit.id();
    const event = bigText(3 * MiB);
    const job = bigText(3 * MiB);
    const gotEvent = deferred<string>();
    const gotJob = deferred<string>();
    await sub.subscribe(`evt.${id}.happened`, `d${id}`, async (p) => gotEvent.resolve((p as { text: string }).text));
    await sub.work(`job.${id}.run`, 'runners', async (p) => gotJob.resolve((p as { text: string }).text));
    await pub.publish(`evt.${id}.happened`, { text: event });
    await pub.enqueue(`job.${id}.run`, { text: job });
    expect((await gotEvent.promise) === event).toBe(true);
    expect((await gotJob.promise) === job).toBe(true);
    await eventually(async () => expect(await pub.pending!(`job.${id}.run`, 'runners')).toBe(0));
  }, 30_000);

  test('a reply larger than the bus may carry is a 500 naming its size, at once, not a timeout', async () => {
    const [server, client] = [await kit.bus({ maxMessageBytes: 2 * MiB }), await kit.bus()];
    const s = subject();
    await server.serve(s, 'things', async () => ok({ text: bigText(3 * MiB) }));
    const started = Date.now();
    const reply = await client.request(s, {}, { timeoutMs: 20_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(reply).toMatchObject({ status: 500, error: { message: expect.stringContaining('BUS_MAX_MESSAGE_BYTES') } });
  });

  test('a receiver past its bound refuses before reading: BusPayloadError naming the size, not a timeout', async () => {
    const [server, client] = [await kit.bus(), await kit.bus({ maxMessageBytes: 2 * MiB })];
    const s = subject();
    await server.serve(s, 'things', async () => ok({ text: bigText(3 * MiB) }));
    const err = await client.request(s, {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BusPayloadError);
    expect(err).not.toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/reply of .* is \d+ bytes, more than the 2097152/);
  });

  test('a sender refuses a message over its bound before sending anything', async () => {
    const [server, client] = [await kit.bus(), await kit.bus({ maxMessageBytes: 2 * MiB })];
    const s = subject();
    let calls = 0;
    await server.serve(s, 'things', async () => ok(++calls));
    await expect(client.request(s, { text: bigText(3 * MiB) })).rejects.toThrow(BusPayloadError);
    await expect(client.publish(`evt.${kit.id()}.x`, { text: bigText(3 * MiB) })).rejects.toThrow(
      /more than the 2097152 a bus message may hold/,
    );
    expect(calls).toBe(0);
  });
}
