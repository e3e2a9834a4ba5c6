import { UnavailableError } from '@patchbay/contracts';
import type { MessageContext } from '../../src/bus/port';
import { consistently, eventually, pause, type BusKit } from './bus-test-kit';

type Seen = { payload: unknown; ctx: MessageContext };
const ids = (seen: Seen[]) => seen.map((s) => (s.payload as { i: number }).i).sort((a, b) => a - b);

/** Durable events: history for new durables, fan-out per durable, sharing within one, at-least-once. */
export function describeEventContract(kit: BusKit): void {
  const family = () => `evt.${kit.id()}`;

  test('a new durable gets the events published before it subscribed, and each durable gets every event', async () => {
    const [pub, sub] = [await kit.bus(), await kit.bus()];
    const evt = family();
    for (let i = 0; i < 3; i++) await pub.publish(`${evt}.created`, { i, at: new Date(0) }, { requestId: `req-${i}` });
    const [alpha, beta]: Seen[][] = [[], []];
    await sub.subscribe(`${evt}.*`, 'alpha', async (payload, ctx) => {
      alpha.push({ payload, ctx });
    });
    await sub.subscribe(`${evt}.*`, 'beta', async (payload, ctx) => {
      beta.push({ payload, ctx });
    });
    await pub.publish(`${evt}.updated`, { i: 3 });
    await pub.publish(`evt.${kit.id()}.created`, { i: 99 });
    await eventually(() => {
      expect(ids(alpha)).toEqual([0, 1, 2, 3]);
      expect(ids(beta)).toEqual([0, 1, 2, 3]);
    });
    const first = alpha.find((s) => (s.payload as { i: number }).i === 0)!;
    expect(first.payload).toStrictEqual({ i: 0, at: '1970-01-01T00:00:00.000Z' });
    expect(first.ctx).toEqual({ subject: `${evt}.created`, requestId: 'req-0' });
    await consistently(() => expect(alpha).toHaveLength(4), 150); // and no second delivery
  });

  test('subscribers sharing a durable share the events, each delivered to one of them', async () => {
    const [pub, a, b] = [await kit.bus(), await kit.bus(), await kit.bus()];
    const evt = family();
    const [seenA, seenB]: Seen[][] = [[], []];
    await a.subscribe(`${evt}.>`, 'shared', async (payload, ctx) => {
      seenA.push({ payload, ctx });
      await pause(20); // the handler's work: the other subscriber gets its share meanwhile
    });
    await b.subscribe(`${evt}.>`, 'shared', async (payload, ctx) => {
      seenB.push({ payload, ctx });
      await pause(20); // the handler's work: the other subscriber gets its share meanwhile
    });
    for (let i = 0; i < 20; i++) await pub.publish(`${evt}.ping`, { i });
    await eventually(() => expect(ids([...seenA, ...seenB])).toEqual(Array.from({ length: 20 }, (_, i) => i)));
    expect(seenA.length).toBeGreaterThan(0);
    expect(seenB.length).toBeGreaterThan(0);
  });

  test('a durable resumes where it left off after its subscribers stopped', async () => {
    const [pub, first, second] = [await kit.bus(), await kit.bus(), await kit.bus()];
    const evt = family();
    const [before, after]: Seen[][] = [[], []];
    const sub = await first.subscribe(`${evt}.*`, 'resumer', async (payload, ctx) => {
      before.push({ payload, ctx });
    });
    await pub.publish(`${evt}.one`, { i: 1 });
    await eventually(() => expect(ids(before)).toEqual([1]));
    await sub.stop();
    await pub.publish(`${evt}.two`, { i: 2 });
    await pub.publish(`${evt}.three`, { i: 3 });
    await consistently(() => expect(ids(before)).toEqual([1]), 100); // a stopped subscriber gets nothing
    await second.subscribe(`${evt}.*`, 'resumer', async (payload, ctx) => {
      after.push({ payload, ctx });
    });
    await eventually(() => expect(ids(after)).toEqual([2, 3]));
    await consistently(() => expect(ids(after)).toEqual([2, 3]), 150); // and nothing twice
  });

  test('an event published while a subscriber stops reaches the next subscriber promptly', async () => {
    const [pub, first, second] = [await kit.bus(), await kit.bus(), await kit.bus()];
    for (let i = 0; i < 10; i++) {
      const evt = family();
      const seen: Seen[] = [];
      const sub = await first.subscribe(`${evt}.*`, 'handover', async (payload, ctx) => {
        seen.push({ payload, ctx });
      });
      await Promise.all([pub.publish(`${evt}.racing`, { i }), sub.stop()]);
      const next = await second.subscribe(`${evt}.*`, 'handover', async (payload, ctx) => {
        seen.push({ payload, ctx });
      });
      // Well inside the 30 s ack wait: nothing may be parked on the stopped subscriber.
      await eventually(() => expect(ids(seen)).toEqual([i]), 2000);
      await next.stop();
    }
  });

  test('an event whose handler throws is delivered again', async () => {
    const [pub, sub] = [await kit.bus(), await kit.bus()];
    const evt = family();
    let calls = 0;
    await sub.subscribe(`${evt}.*`, 'flaky', async () => {
      calls++;
      if (calls === 1) throw new Error('flaky handler');
    });
    await pub.publish(`${evt}.happened`, { i: 1 });
    await eventually(() => expect(calls).toBe(2));
    await consistently(() => expect(calls).toBe(2), 300); // a handled event is not delivered a third time
  });

  test('a second publish with the same msgId is dropped', async () => {
    const [pub, sub] = [await kit.bus(), await kit.bus()];
    const evt = family();
    await pub.publish(`${evt}.once`, { i: 1 }, { msgId: `${evt}-1` });
    await pub.publish(`${evt}.once`, { i: 1 }, { msgId: `${evt}-1` });
    await pub.publish(`${evt}.once`, { i: 2 });
    const seen: Seen[] = [];
    await sub.subscribe(`${evt}.*`, 'dedupe', async (payload, ctx) => {
      seen.push({ payload, ctx });
    });
    await eventually(() => expect(ids(seen)).toEqual([1, 2]));
    await consistently(() => expect(seen).toHaveLength(2), 150); // the duplicate never comes
  });

  test('listen: every live listener gets each event published from then on, without history', async () => {
    const [pub, a, b] = [await kit.bus(), await kit.bus(), await kit.bus()];
    const evt = family();
    await pub.publish(`${evt}.before`, { i: 0 });
    const [seenA, seenB]: Seen[][] = [[], []];
    const sub = await a.listen!(`${evt}.*`, async (payload, ctx) => {
      seenA.push({ payload, ctx });
    });
    await b.listen!(`${evt}.*`, async (payload, ctx) => {
      seenB.push({ payload, ctx });
    });
    await pub.publish(`${evt}.after`, { i: 1 }, { requestId: 'req-listen' });
    await eventually(() => {
      expect(ids(seenA)).toEqual([1]);
      expect(ids(seenB)).toEqual([1]);
    });
    expect(seenA[0].ctx).toEqual({ subject: `${evt}.after`, requestId: 'req-listen' });
    await sub.stop();
    await pub.publish(`${evt}.later`, { i: 2 });
    await eventually(() => expect(ids(seenB)).toEqual([1, 2]));
    expect(ids(seenA)).toEqual([1]);
  });

  test('publishing on a subject no stream stores is refused with UnavailableError', async () => {
    const pub = await kit.bus();
    await expect(pub.publish(`nowhere.${kit.id()}`, {})).rejects.toBeInstanceOf(UnavailableError);
  });

  test('subscribing outside the events stream is refused', async () => {
    const sub = await kit.bus();
    await expect(sub.subscribe(`svc.${kit.id()}.x`, 'outside', async () => undefined)).rejects.toThrow(/stream/);
  });
}
