/**
 * Stops that finish (decisions §50): a process whose stdout nobody reads any more keeps running and
 * still stops on SIGTERM; lines it could not write are counted and reported once output flows again;
 * and the stop's deadline holds whatever the stop is waiting for. A real process each time
 * (fixtures/stopping-process.ts) on pipes this test reads, or stops reading.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pause, until } from '../../../../tests/support/poll';

const ROOT = path.resolve(__dirname, '../../../..');
const FIXTURE = path.join(__dirname, 'fixtures/stopping-process.ts');
const GRACE_MS = 3000;

interface Fixture {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout: () => string;
  ticks: () => number;
  /** Resolves with the exit code or signal, and when it came. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Every fixture started, so that one a failed test leaves running is killed. */
const started: Fixture[] = [];
afterEach(() => {
  for (const f of started.splice(0))
    if (f.child.exitCode === null && f.child.signalCode === null) f.child.kill('SIGKILL');
});

/** Starts the fixture (node with tsx's loader: one process, signalled directly) and waits for `started`. */
async function start(how: 'finishes' | 'hangs' | 'blocks'): Promise<Fixture> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, how], {
    cwd: ROOT,
    env: { ...process.env, GRACE_MS: String(GRACE_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const fixture = { child, exit, stdout: () => out, ticks: () => err.split('tick').length - 1 };
  started.push(fixture);
  await until(
    'the fixture to start',
    20000,
    () => {
      if (child.exitCode !== null) throw new Error(`the fixture did not start:\n${err}`);
      return err.includes('started') ? true : undefined;
    },
    { everyMs: 50 },
  );
  return fixture;
}

test('stdout no longer read: the process keeps running, and SIGTERM stops it at once, exit 0', async () => {
  const f = await start('finishes');
  f.child.stdout.pause(); // the pipe fills within milliseconds: about 5 MB of lines a second
  await pause(1000); // the pipe is full by now
  const ticks = f.ticks();
  await pause(1000); // a second of ticks: the rate is what is asserted
  // Its event loop still runs (it would be stuck in a write retried for ever with synchronous logging).
  expect(f.ticks() - ticks).toBeGreaterThanOrEqual(5);
  const signalled = Date.now();
  f.child.kill('SIGTERM');
  const { code, at } = await f.exit;
  expect(code).toBe(0);
  expect(at - signalled).toBeLessThan(GRACE_MS);
}, 30000);

test('lines dropped while stdout was not read are counted, and the count logged once it is read again', async () => {
  const f = await start('finishes');
  f.child.stdout.pause();
  await pause(2000); // over the 4 MiB the sink holds: how much it dropped is not observable from here
  f.child.stdout.resume();
  await until('the dropped lines notice', 10000, () => (f.stdout().includes('lines dropped') ? true : undefined));
  const notice = f
    .stdout()
    .split('\n')
    .filter((l) => l.includes('lines dropped'))
    .map((l) => JSON.parse(l) as { level: number; dropped_lines: number });
  expect(notice.length).toBeGreaterThanOrEqual(1);
  expect(notice[0]).toMatchObject({ level: 40 });
  expect(notice[0].dropped_lines).toBeGreaterThan(0);
  // Every line that was written is whole JSON: a line is dropped entirely or written entirely.
  const lines = f.stdout().split('\n').slice(0, -1);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  f.child.kill('SIGTERM');
  expect((await f.exit).code).toBe(0);
}, 30000);

test('a stop that never settles: the deadline exits with 1, though nothing else holds the process', async () => {
  const f = await start('hangs');
  const signalled = Date.now();
  f.child.kill('SIGTERM');
  const { code, at } = await f.exit;
  expect(code).toBe(1);
  expect(at - signalled).toBeGreaterThanOrEqual(GRACE_MS - 100);
  expect(at - signalled).toBeLessThan(GRACE_MS + 1500);
  expect(f.stdout()).toContain('graceful shutdown timed out');
}, 30000);

test('a stop that holds the main thread for good: killed shortly after the deadline', async () => {
  const f = await start('blocks');
  const signalled = Date.now();
  f.child.kill('SIGTERM');
  // A second SIGTERM later cannot be handled either: the main thread does not run.
  await pause(1500); // a second signal well after the first, not an echo of it
  f.child.kill('SIGTERM');
  const { signal, at } = await f.exit;
  expect(signal).toBe('SIGKILL');
  expect(at - signalled).toBeLessThan(GRACE_MS + 4000);
}, 30000);

test('signals echoing the first within a second are one stop; one given later forces the exit', async () => {
  const echoes = await start('hangs');
  echoes.child.kill('SIGINT');
  await pause(50); // an echo: within the second after the first signal
  echoes.child.kill('SIGINT');
  echoes.child.kill('SIGTERM');
  const first = await echoes.exit;
  // Not forced: it ran into its deadline (the stop hangs), and wrote no line about a second signal.
  expect(first.code).toBe(1);
  expect(echoes.stdout()).toContain('graceful shutdown timed out');
  expect(echoes.stdout()).not.toMatch(/second signal|asked again/);

  const later = await start('hangs');
  const signalled = Date.now();
  later.child.kill('SIGINT');
  await pause(1300); // past the second within which a signal counts as an echo
  later.child.kill('SIGINT');
  const forced = await later.exit;
  expect(forced.code).toBe(130);
  expect(forced.at - signalled).toBeLessThan(GRACE_MS);
  expect(later.stdout()).toContain('asked again to stop');
}, 30000);
