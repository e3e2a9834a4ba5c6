import pino, { type Logger } from 'pino';
import type { Bus, Subscription } from '../../src/bus/port';
import { consistently, eventually, pause } from '../../../../tests/support/poll';

export { consistently, eventually, pause };

/**
 * What an adapter's test hands the contract suite: a shared medium (a nats-server, a MemoryHub)
 * on which it can open several buses — several "processes" — for load sharing and durability.
 */
export interface BusMedium {
  /** A new bus connected to the medium (`maxMessageBytes`: its BUS_MAX_MESSAGE_BYTES). */
  connect(opts?: { logger?: Logger; maxMessageBytes?: number }): Promise<Bus>;
  /** Releases the medium after the whole suite. */
  teardown(): Promise<void>;
}

export interface BusKit {
  /** A bus on the shared medium, closed after the current test. */
  bus(opts?: { logger?: Logger; maxMessageBytes?: number }): Promise<Bus>;
  /** A subject token unique to this call, so tests sharing one medium never see each other's messages. */
  id(): string;
}

/** Sets the medium up once per suite and closes every bus a test opened after that test. */
export function useBusMedium(setup: () => Promise<BusMedium>): BusKit {
  let medium: BusMedium | undefined;
  const open: Bus[] = [];
  let n = 0;
  beforeAll(async () => {
    medium = await setup();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });
  afterAll(async () => {
    await medium?.teardown();
  });
  return {
    async bus(opts) {
      if (!medium) throw new Error('bus medium was not set up');
      const b = await medium.connect(opts);
      open.push(b);
      return b;
    },
    id: () => `t${process.pid}x${Date.now().toString(36)}x${++n}`,
  };
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A logger whose JSON lines are kept in memory, to assert what an adapter logged. */
export function captureLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'debug' },
    {
      write: (line: string) => {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines };
}

/**
 * Enqueues one job on `subject` for `sub` (queue `runners`), whose handler resolves `started` when
 * it begins, waits for `release`, then counts itself in `done()`. Stops the subscription while the
 * job runs, runs `whileStopping`, and checks that stop() still waits; then releases the job and
 * checks the stop resolves with the job run once and acknowledged.
 */
export async function stopWhileJobRuns(
  w: Bus,
  subject: string,
  sub: Subscription,
  job: { started: Deferred; release: Deferred; done: () => number },
  whileStopping?: () => Promise<void>,
): Promise<void> {
  await w.enqueue(subject, { n: 1 });
  await job.started.promise;
  let stopped = false;
  const stopping = sub.stop().then(() => {
    stopped = true;
  });
  await whileStopping?.();
  await consistently(() => expect(stopped).toBe(false), 100); // stop() waits for the job in flight
  job.release.resolve();
  await stopping;
  expect(job.done()).toBe(1);
  await eventually(async () => expect(await w.pending!(subject, 'runners')).toBe(0));
}
