import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isReadyMessage, type LogFormat } from '@patchbay/platform';
import { REPO_ROOT, type ProcessSpec } from './process-list';
import { RestartBackoff } from './restart-backoff';
import { relayLines } from './relay-lines';

export interface RunningSet {
  /** The process running each service now (a restarted one replaces the one before). */
  children: Map<string, ChildProcess>;
  /**
   * Resolves once every process has said it is ready, with the port of each one's /health and
   * /metrics (null when it has none); rejects when one exits first or `timeoutMs` passes.
   */
  ready(timeoutMs?: number): Promise<Map<string, number | null>>;
  /**
   * Stops the set in two steps: SIGTERM to the processes that take requests from outside (the
   * gateway and the file servers: `stopFirst`), which finish their requests in flight while every
   * service they call still answers; then SIGTERM to the rest. Each step SIGKILLs what is left
   * after its grace.
   */
  stop(graces?: { firstMs: number; restMs: number }): Promise<void>;
}

/**
 * How a service's TypeScript runs: node itself with tsx's hooks (what the `tsx` command does in a
 * child process of its own). No wrapper process: a signal reaches the service itself, and tsx's
 * wrapper, which SIGKILLs a child that does not confirm a relayed signal within 30 ms, cannot cut
 * a busy service's graceful stop short (decisions §50).
 */
const NODE_ARGS = [
  '--require',
  require.resolve('tsx/preflight'),
  '--import',
  pathToFileURL(require.resolve('tsx')).href,
];

export interface SpawnOptions {
  /** Drop the services' output (tests of the launcher itself). */
  quiet?: boolean;
  /** How their lines are written (relay-lines.ts): JSON lines with a `service` field, or readable. */
  logFormat?: LogFormat;
  /** A service of the ready set exited and will be started again in `restartInMs`. */
  onRestart?: (name: string, exit: { code: number | null; signal: string | null }, restartInMs: number) => void;
}

/**
 * Starts and supervises each process (node with tsx's hooks; decisions §50). Each runs in a process
 * group of its own, so a terminal's Ctrl-C (SIGINT to the launcher's foreground group) reaches the
 * launcher alone, which stops the set in order; a service also stops by itself when the launcher
 * is gone (PATCHBAY_LAUNCHER_PID). Once the set is ready, a process that exits or is killed is
 * started again after a backoff (restart-backoff.ts); before that, an exit fails the start.
 * Whenever the launcher itself exits, what is still running is killed.
 */
export function spawnSet(specs: ProcessSpec[], env: NodeJS.ProcessEnv, opts: SpawnOptions = {}): RunningSet {
  const children = new Map<string, ChildProcess>();
  const reported = new Map<string, number | null>();
  const backoffs = new Map(specs.map((s) => [s.name, new RestartBackoff()]));
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  let setReady = false;
  let settle: ((failure?: Error) => void) | undefined;

  const run = (spec: ProcessSpec) => {
    const startedAt = Date.now();
    // The IPC channel carries the service's ready message.
    const child = spawn(process.execPath, [...NODE_ARGS, path.join(REPO_ROOT, spec.entry)], {
      cwd: REPO_ROOT,
      env: { ...env, ...spec.env, PATCHBAY_LAUNCHER_PID: String(process.pid) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true,
    });
    child.on('message', (message) => {
      if (!isReadyMessage(message)) return;
      reported.set(spec.name, message.opsPort);
      if (reported.size === specs.length) settle?.();
    });
    if (!opts.quiet) relayLines(spec.name, child.stdout, child.stderr, opts.logFormat ?? 'json');
    child.on('error', () => undefined); // a failed spawn also exits: handled there
    child.on('exit', (code, signal) => {
      if (stopping) return;
      if (!setReady) {
        settle?.(new Error(`${spec.name} exited with ${code ?? signal} before the set was ready`));
        return;
      }
      const delay = backoffs.get(spec.name)!.next(Date.now() - startedAt);
      opts.onRestart?.(spec.name, { code, signal }, delay);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) run(spec);
      }, delay);
      timers.add(timer);
    });
    children.set(spec.name, child);
  };

  for (const spec of specs) run(spec);
  // However the launcher ends (a forced stop, its deadline), it takes its services with it.
  process.on('exit', () => {
    for (const child of children.values()) if (isRunning(child)) child.kill('SIGKILL');
  });

  const stopEach = (names: string[], graceMs: number) =>
    Promise.all(
      names.map(
        (name) =>
          new Promise<void>((resolve) => {
            const child = children.get(name);
            if (!child || !isRunning(child)) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );

  return {
    children,
    ready: (timeoutMs = 120000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            settle?.(
              new Error(
                `not ready within ${timeoutMs} ms: ${specs
                  .map((s) => s.name)
                  .filter((n) => !reported.has(n))
                  .join(', ')}`,
              ),
            ),
          timeoutMs,
        );
        settle = (failure) => {
          clearTimeout(timer);
          settle = undefined;
          if (failure) return reject(failure);
          setReady = true;
          resolve(new Map(reported));
        };
        if (reported.size === specs.length) settle();
      }),
    stop: async (graces = { firstMs: 20000, restMs: 7000 }) => {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      await stopEach(
        specs.filter((s) => s.stopFirst).map((s) => s.name),
        graces.firstMs,
      );
      await stopEach(
        specs.filter((s) => !s.stopFirst).map((s) => s.name),
        graces.restMs,
      );
    },
  };
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Polls `url` until it answers 200 (or `timeoutMs` passes). */
export async function waitForHealth(url: string, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
