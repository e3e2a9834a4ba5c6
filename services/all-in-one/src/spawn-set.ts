import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isReadyMessage, stdoutSink } from '@patchbay/platform';
import { REPO_ROOT, type ProcessSpec } from './process-list';

export interface RunningSet {
  children: Map<string, ChildProcess>;
  /**
   * Resolves once every process has said it is ready, with the port of each one's /health and
   * /metrics (null when it has none); rejects when one exits first or `timeoutMs` passes.
   */
  ready(timeoutMs?: number): Promise<Map<string, number | null>>;
  /** SIGTERM to every process, then wait for all (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
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

/**
 * Starts each process (node with tsx's hooks), its output prefixed by its name (or silenced). A process that
 * exits on its own is reported through `onExit`.
 */
export function spawnSet(
  specs: ProcessSpec[],
  env: NodeJS.ProcessEnv,
  opts: { quiet?: boolean; onExit?: (name: string, code: number | null) => void } = {},
): RunningSet {
  const children = new Map<string, ChildProcess>();
  const reported = new Map<string, number | null>();
  let stopping = false;
  let settle: ((failure?: Error) => void) | undefined;
  for (const spec of specs) {
    // The IPC channel carries the service's ready message.
    const child = spawn(process.execPath, [...NODE_ARGS, path.join(REPO_ROOT, spec.entry)], {
      cwd: REPO_ROOT,
      env: { ...env, ...spec.env, PATCHBAY_LAUNCHER_PID: String(process.pid) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.on('message', (message) => {
      if (!isReadyMessage(message)) return;
      reported.set(spec.name, message.opsPort);
      if (reported.size === specs.length) settle?.();
    });
    const prefix = `[${spec.name}] `;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream?.on('data', (chunk: Buffer) => {
        if (opts.quiet) return;
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        // Through the launcher's bounded output: a reader that stops reading never blocks the
        // launcher, so it keeps reading its services' pipes and they never block either.
        for (const line of lines) stdoutSink().write(prefix + line + '\n');
      });
    }
    child.on('exit', (code) => {
      if (stopping) return;
      opts.onExit?.(spec.name, code);
      settle?.(new Error(`${spec.name} exited with ${code} before the set was ready`));
    });
    children.set(spec.name, child);
  }
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
          if (failure) reject(failure);
          else resolve(new Map(reported));
        };
        if (reported.size === specs.length) settle();
      }),
    stop: async (graceMs = 20000) => {
      stopping = true;
      await Promise.all(
        [...children.values()].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
              child.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
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
