import type { JobContext } from '../../src/bus/port';
import { captureLogger, deferred, eventually, pause, stopWhileJobRuns, type BusKit } from './bus-test-kit';

/** Resolves never; rejects with the signal's reason once it is aborted. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
  );
}

/**
 * Work subscriptions being stopped: jobs still running after `drainMs` have their signal aborted;
 * one that then rejects is handed back at once (not after its ack wait), without counting as a
 * failure; `stop()` resolves only once every handler has settled.
 */
export function describeJobDrainContract(kit: BusKit): void {
  const subject = () => `job.${kit.id()}.run`;

  test('a job still running after drainMs is aborted and handed back at once to another worker', async () => {
    const { logger, lines } = captureLogger();
    const [stopping, other] = [await kit.bus({ logger }), await kit.bus()];
    const s = subject();
    const started = deferred();
    const first: { aborted?: boolean; settled?: boolean } = {};
    const sub = await stopping.work(
      s,
      'runners',
      async (_p, ctx) => {
        started.resolve();
        try {
          await untilAborted(ctx.signal);
        } finally {
          first.aborted = ctx.signal.aborted;
          first.settled = true;
        }
      },
      { ackWaitMs: 20_000, drainMs: 300 },
    );
    await stopping.enqueue(s, { n: 1 });
    await started.promise;

    const seen: Array<{ payload: unknown; deliveryCount: number; at: number }> = [];
    await other.work(
      s,
      'runners',
      async (payload, ctx: JobContext) => {
        seen.push({ payload, deliveryCount: ctx.deliveryCount, at: Date.now() });
      },
      { ackWaitMs: 20_000 },
    );
    const stoppedAt = Date.now();
    await sub.stop();
    // stop() resolved only once the aborted handler had settled.
    expect(first).toEqual({ aborted: true, settled: true });
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(250);

    // Well under the 20 s ack wait: the hand-back is immediate (generous margin for a busy machine).
    await eventually(() => expect(seen).toHaveLength(1), 5000);
    expect(seen[0]).toMatchObject({ payload: { n: 1 }, deliveryCount: 2 });
    expect(seen[0].at - stoppedAt).toBeLessThan(5000);
    await eventually(async () => expect(await other.pending!(s, 'runners')).toBe(0));
    // A hand-back is not a failure: no failure warning, no error, no backoff.
    expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(lines.some((l) => String(l.msg).includes('handler failed'))).toBe(false);
  });

  test('stop() waits for a handler that ignores its signal; one that then resolves is acknowledged', async () => {
    const w = await kit.bus();
    const s = subject();
    const [started, release] = [deferred(), deferred()];
    let aborted = false;
    let done = 0;
    const sub = await w.work(
      s,
      'runners',
      async (_p, ctx) => {
        started.resolve();
        ctx.signal.addEventListener(
          'abort',
          () => {
            aborted = true;
          },
          { once: true },
        );
        await release.promise;
        done++;
      },
      { drainMs: 100 },
    );
    await stopWhileJobRuns(w, s, sub, { started, release, done: () => done }, () =>
      eventually(() => expect(aborted).toBe(true)),
    );
  });

  test('a job that finishes within drainMs never sees its signal aborted', async () => {
    const w = await kit.bus();
    const s = subject();
    const started = deferred();
    let signal: AbortSignal | undefined;
    const sub = await w.work(
      s,
      'runners',
      async (_p, ctx) => {
        signal = ctx.signal;
        started.resolve();
        await pause(100); // the job's work, well within drainMs
      },
      { drainMs: 2000 },
    );
    await w.enqueue(s, { n: 1 });
    await started.promise;
    await sub.stop();
    expect(signal?.aborted).toBe(false);
    await eventually(async () => expect(await w.pending!(s, 'runners')).toBe(0));
  });
}
