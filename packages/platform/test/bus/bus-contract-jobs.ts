import { RetryLaterError } from '../../src/bus/bus-errors';
import type { JobContext } from '../../src/bus/port';
import {
  captureLogger,
  consistently,
  deferred,
  eventually,
  pause,
  stopWhileJobRuns,
  type BusKit,
} from './bus-test-kit';

type Seen = { worker: string; payload: unknown; deliveryCount: number };

/** Durable work queues: sharing, acks, retries up to maxDeliver, ack-wait redelivery, concurrency. */
export function describeJobContract(kit: BusKit): void {
  const subject = () => `job.${kit.id()}.run`;
  const record = (seen: Seen[], worker: string) => async (payload: unknown, ctx: JobContext) => {
    seen.push({ worker, payload, deliveryCount: ctx.deliveryCount });
  };

  test('a job enqueued before any worker runs once, is acknowledged, and then is no longer pending', async () => {
    const w = await kit.bus();
    const s = subject();
    await w.enqueue(s, { n: 1, at: new Date(0) }, { requestId: 'req-job' });
    expect(await w.pending!(s, 'runners')).toBe(1);
    const seen: Array<{ payload: unknown; ctx: Omit<JobContext, 'working' | 'signal'> }> = [];
    await w.work(s, 'runners', async (payload, { subject: sub, requestId, deliveryCount }) => {
      seen.push({ payload, ctx: { subject: sub, requestId, deliveryCount } });
    });
    await eventually(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({
      payload: { n: 1, at: '1970-01-01T00:00:00.000Z' },
      ctx: { subject: s, requestId: 'req-job', deliveryCount: 1 },
    });
    await eventually(async () => expect(await w.pending!(s, 'runners')).toBe(0));
    await consistently(() => expect(seen).toHaveLength(1), 150); // an acknowledged job does not come back
  });

  test('workers sharing a queue share the jobs, each job done once', async () => {
    const [producer, a, b] = [await kit.bus(), await kit.bus(), await kit.bus()];
    const s = subject();
    const seen: Seen[] = [];
    const slow = (worker: string) => async (payload: unknown, ctx: JobContext) => {
      await record(seen, worker)(payload, ctx);
      await pause(20); // the job's work: the other worker takes its share meanwhile
    };
    await a.work(s, 'runners', slow('a'));
    await b.work(s, 'runners', slow('b'));
    for (let i = 0; i < 20; i++) await producer.enqueue(s, i);
    await eventually(() =>
      expect(seen.map((x) => x.payload).sort((x, y) => Number(x) - Number(y))).toEqual(
        Array.from({ length: 20 }, (_, i) => i),
      ),
    );
    expect(seen.filter((x) => x.worker === 'a').length).toBeGreaterThan(0);
    expect(seen.filter((x) => x.worker === 'b').length).toBeGreaterThan(0);
  });

  test(
    'a failing job comes back with a rising deliveryCount, then is dropped ' + 'after maxDeliver with an error log',
    async () => {
      const { logger, lines } = captureLogger();
      const w = await kit.bus({ logger });
      const s = subject();
      const counts: number[] = [];
      await w.work(
        s,
        'runners',
        async (_p, ctx) => {
          counts.push(ctx.deliveryCount);
          throw new Error('always fails');
        },
        { maxDeliver: 3 },
      );
      await w.enqueue(s, { n: 1 });
      await eventually(() => expect(counts).toEqual([1, 2, 3]));
      await eventually(async () => expect(await w.pending!(s, 'runners')).toBe(0));
      expect(lines.some((l) => l.level === 50 && l.subject === s && String(l.msg).includes('dropped'))).toBe(true);
      await consistently(() => expect(counts).toEqual([1, 2, 3]), 300); // no fourth delivery
    },
  );

  test('a job that asks to be retried later comes back after its own delay, with no failure logged', async () => {
    const { logger, lines } = captureLogger();
    const w = await kit.bus({ logger });
    const s = subject();
    const at: number[] = [];
    await w.work(
      s,
      'runners',
      async (_p, ctx) => {
        at.push(Date.now());
        if (ctx.deliveryCount < 3) throw new RetryLaterError(400);
      },
      { maxDeliver: Infinity },
    );
    await w.enqueue(s, { n: 1 });
    await eventually(() => expect(at).toHaveLength(3), 5000);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(350);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(350);
    await eventually(async () => expect(await w.pending!(s, 'runners')).toBe(0));
    expect(lines.filter((l) => Number(l.level) >= 40 && l.subject === s)).toEqual([]);
  });

  test('a job whose worker stops answering is redone by another worker after the ack wait', async () => {
    const [stuck, healthy] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const release = deferred();
    const seen: Seen[] = [];
    try {
      await stuck.work(
        s,
        'runners',
        async (p, ctx) => {
          await record(seen, 'stuck')(p, ctx);
          await release.promise;
        },
        { ackWaitMs: 1000 },
      );
      await stuck.enqueue(s, { n: 1 });
      await eventually(() => expect(seen).toHaveLength(1));
      await healthy.work(s, 'runners', record(seen, 'healthy'), { ackWaitMs: 1000 });
      await eventually(() =>
        expect(seen).toEqual([
          { worker: 'stuck', payload: { n: 1 }, deliveryCount: 1 },
          { worker: 'healthy', payload: { n: 1 }, deliveryCount: 2 },
        ]),
      );
      await eventually(async () => expect(await healthy.pending!(s, 'runners')).toBe(0));
    } finally {
      release.resolve();
    }
  });

  test('ctx.working() keeps a long job from being redelivered', async () => {
    const [a, b] = [await kit.bus(), await kit.bus()];
    const s = subject();
    const seen: Seen[] = [];
    let finished = 0;
    const long = (worker: string) => async (payload: unknown, ctx: JobContext) => {
      await record(seen, worker)(payload, ctx);
      for (let i = 0; i < 9; i++) {
        await pause(200); // a slice of a job that outlasts the 1 s ack wait
        ctx.working();
      }
      finished++;
    };
    await a.work(s, 'runners', long('a'), { ackWaitMs: 1000 });
    await b.work(s, 'runners', long('b'), { ackWaitMs: 1000 });
    await a.enqueue(s, { n: 1 });
    await eventually(() => expect(finished).toBe(1));
    await consistently(() => expect(seen).toHaveLength(1), 200); // never redelivered
    expect(seen[0].deliveryCount).toBe(1);
    await eventually(async () => expect(await a.pending!(s, 'runners')).toBe(0));
  });

  test('concurrency limits the jobs in flight per subscription', async () => {
    const w = await kit.bus();
    const s = subject();
    let inFlight = 0;
    let most = 0;
    let done = 0;
    await w.work(
      s,
      'runners',
      async () => {
        most = Math.max(most, ++inFlight);
        await pause(100); // the job's work, long enough for the others to pile up
        inFlight--;
        done++;
      },
      { concurrency: 3 },
    );
    for (let i = 0; i < 9; i++) await w.enqueue(s, i);
    await eventually(() => expect(done).toBe(9));
    expect(most).toBe(3);
  });

  test('enqueueing twice with the same msgId makes one job', async () => {
    const w = await kit.bus();
    const s = subject();
    await w.enqueue(s, { n: 1 }, { msgId: `${s}-1` });
    await w.enqueue(s, { n: 1 }, { msgId: `${s}-1` });
    expect(await w.pending!(s, 'runners')).toBe(1);
  });

  test('stop() lets the job in flight finish and acknowledges it, then takes no more', async () => {
    const w = await kit.bus();
    const s = subject();
    const [started, release] = [deferred(), deferred()];
    let done = 0;
    const sub = await w.work(s, 'runners', async () => {
      started.resolve();
      await release.promise;
      done++;
    });
    await stopWhileJobRuns(w, s, sub, { started, release, done: () => done });
    await w.enqueue(s, { n: 2 });
    await consistently(() => expect(done).toBe(1), 300); // a stopped subscription takes no more
    expect(await w.pending!(s, 'runners')).toBe(1);
  });

  test('a second queue on an overlapping job subject is refused (work-queue retention)', async () => {
    const w = await kit.bus();
    const s = `job.${kit.id()}`;
    await w.work(`${s}.*`, 'first', async () => undefined);
    await expect(w.work(`${s}.run`, 'second', async () => undefined)).rejects.toThrow(/stream/);
  });
}
