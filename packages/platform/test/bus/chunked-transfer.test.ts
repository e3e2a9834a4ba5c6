/**
 * The chunked transfer under load and faults, over a real nats-server (default max_payload, 1 MiB):
 * the receiver never has more than CHUNK_WINDOW chunks of one message on their way; a process's
 * chunked messages stay within its byte budget each way (503 with Retry-After past it, and the
 * sender let go at once); a chunk that does not come is asked for again, and one that cannot be had
 * in time is a 503 — never a 500, never the whole bus timeout.
 */
import { connect, type NatsConnection } from 'nats';
import { UnavailableError } from '@patchbay/contracts';
import type { ChunkWire } from '../../src/bus/chunk-wire';
import { CHUNK_WINDOW, fetchChunks, offerChunks } from '../../src/bus/chunked-transfer';
import { LargeMessages } from '../../src/bus/large-messages';
import { natsWire } from '../../src/bus/nats-large';
import { startNatsServer, type NatsServerHandle } from '../../src/testing/nats-server';
import { bigText } from './bus-contract-large';

const MiB = 1024 * 1024;
const CHUNK = MiB - 8 * 1024;
const bytes = (n: number) => new TextEncoder().encode(bigText(n));
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

let server: NatsServerHandle;
let sender: NatsConnection;
let receiver: NatsConnection;
beforeAll(async () => {
  server = await startNatsServer({ jetstream: false });
  [sender, receiver] = await Promise.all([connect({ servers: server.url }), connect({ servers: server.url })]);
});
afterAll(async () => {
  await Promise.all([sender?.close(), receiver?.close()]);
  await server?.stop();
});

/** The receiver's wire, counting the chunk requests it has on their way at once. */
function countingWire(nc: NatsConnection): ChunkWire & { most: number; asked: number } {
  const inner = natsWire(nc);
  let now = 0;
  const wire = {
    most: 0,
    asked: 0,
    offer: inner.offer,
    tell: inner.tell,
    async ask(subject: string, data: Uint8Array, timeoutMs: number) {
      wire.asked += 1;
      wire.most = Math.max(wire.most, ++now);
      try {
        return await inner.ask(subject, data, timeoutMs);
      } finally {
        now -= 1;
      }
    },
  };
  return wire;
}

test('a 20 MB message arrives whole, with never more than the window of chunks on its way', async () => {
  const data = bytes(20 * MiB);
  const offer = offerChunks(natsWire(sender), data, CHUNK, 30_000);
  // The bus sends the header after the offer on the same connection; here the server is told first.
  await sender.flush();
  const wire = countingWire(receiver);
  const got = await fetchChunks(wire, offer.ref, { maxBytes: 64 * MiB, timeoutMs: 20_000, what: 'the test' });
  expect(same(got, data)).toBe(true);
  expect(wire.asked).toBe(Math.ceil(data.length / CHUNK));
  expect(wire.most).toBeGreaterThan(1);
  expect(wire.most).toBeLessThanOrEqual(CHUNK_WINDOW);
  // The receiver said it was done: the sender let the bytes go at once, not after its TTL.
  await expect(offer.closed).resolves.toBeUndefined();
});

test('a chunk whose answer was dropped is asked for again and the message still arrives', async () => {
  const data = bytes(3 * MiB);
  const subject = `_INBOX.drops.${Date.now()}`;
  const asks: number[] = [];
  // A sender that drops the first request for chunk 2 (no answer, as when a message is lost on the way).
  const sub = sender.subscribe(subject, {
    callback: (_err, msg) => {
      const i = Number(new TextDecoder().decode(msg.data));
      if (!Number.isInteger(i)) return; // `done`
      asks.push(i);
      if (i === 1 && asks.filter((x) => x === 1).length === 1) return;
      msg.respond(data.subarray(i * CHUNK, Math.min(data.length, (i + 1) * CHUNK)));
    },
  });
  await sender.flush();
  const ref = `${subject} ${data.length} ${Math.ceil(data.length / CHUNK)} ${CHUNK}`;
  const got = await fetchChunks(natsWire(receiver), ref, {
    maxBytes: 64 * MiB,
    timeoutMs: 10_000,
    what: 'the test',
    chunkWaitMs: 300,
  });
  sub.unsubscribe();
  expect(same(got, data)).toBe(true);
  expect(asks.filter((x) => x === 1)).toHaveLength(2);
});

test('a chunk that never comes fails the transfer at its deadline with a 503 and Retry-After, not a 500', async () => {
  const subject = `_INBOX.silent.${Date.now()}`;
  const sub = sender.subscribe(subject, { callback: () => undefined });
  await sender.flush();
  const started = Date.now();
  const err = await fetchChunks(natsWire(receiver), `${subject} ${2 * CHUNK} 2 ${CHUNK}`, {
    maxBytes: 64 * MiB,
    timeoutMs: 1000,
    what: 'the reply of svc.test.thing.list',
    chunkWaitMs: 200,
  }).catch((e: unknown) => e);
  sub.unsubscribe();
  expect(err).toBeInstanceOf(UnavailableError);
  expect((err as UnavailableError).status).toBe(503);
  expect((err as UnavailableError).retryAfterSeconds).toBe(1);
  expect((err as Error).message).toMatch(/the reply of svc\.test\.thing\.list: chunk [12] of 2 was lost 3 times/);
  expect(Date.now() - started).toBeLessThan(5000);
});

describe('the byte budget of a process (BUS_CHUNKED_BYTES)', () => {
  const limits = () => ({ maxPayload: MiB, maxMessageBytes: 64 * MiB, chunkedBytes: 5 * MiB });

  test('offers past it are refused with a 503 before anything is held; taken ones free it', async () => {
    const out = new LargeMessages(natsWire(sender), limits);
    const into = new LargeMessages(natsWire(receiver), limits);
    const first = out.frame(bytes(3 * MiB), 'the first reply');
    const refused = (() => {
      try {
        return out.frame(bytes(3 * MiB), 'the second reply');
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(UnavailableError);
    expect((refused as UnavailableError).retryAfterSeconds).toBe(1);
    expect((refused as Error).message).toMatch(
      /the second reply .* cannot be offered now: .*BUS_CHUNKED_BYTES is 5242880/,
    );
    // A small one still fits beside it; the first, once taken, leaves nothing held.
    const small = out.frame(bytes(MiB + 100), 'a small reply');
    await sender.flush();
    await into.unframe(first.data, first.chunked, 'the first reply', 10_000);
    await into.unframe(small.data, small.chunked, 'a small reply', 10_000);
    await Promise.all([first.sent, small.sent]);
    expect(out.held()).toEqual({ offered: 0, receiving: 0 });
    expect(into.held()).toEqual({ offered: 0, receiving: 0 });
    // One message larger than the whole budget still travels when nothing else is held.
    const big = out.frame(bytes(8 * MiB), 'a big reply');
    await sender.flush();
    expect((await into.unframe(big.data, big.chunked, 'a big reply', 10_000)).length).toBe(8 * MiB);
  });

  test('a receiver past it refuses at once with a 503 and tells the sender, who lets the bytes go', async () => {
    const outA = new LargeMessages(natsWire(sender), () => ({ ...limits(), chunkedBytes: 64 * MiB }));
    const into = new LargeMessages(natsWire(receiver), limits);
    const [a, b] = [outA.frame(bytes(4 * MiB), 'reply a'), outA.frame(bytes(4 * MiB), 'reply b')];
    await sender.flush();
    const gotA = into.unframe(a.data, a.chunked, 'reply a', 10_000);
    const err = await into.unframe(b.data, b.chunked, 'reply b', 10_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toMatch(/reply b \(4194304 bytes\) cannot be received now/);
    await b.sent; // withdrawn by the receiver's word, well before the offer's own 20 s
    expect((await gotA).length).toBe(4 * MiB);
    await a.sent;
    expect(outA.held().offered).toBe(0);
  });
});
