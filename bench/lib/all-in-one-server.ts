/**
 * The all-in-one as `pnpm start` runs it (scripts/start.cjs, its bundle), on a data directory of the
 * bench's, with the first partner created under a token the bench knows: the server the embedded-store
 * benches start, stop and start again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** The first partner's token (PATCHBAY_BOOTSTRAP_TOKEN): every request of the benches carries it. */
export const BENCH_TOKEN = `bench-token-${'x'.repeat(24)}`;

export interface BenchServer {
  child: ChildProcess;
  origin: string;
  /** Settles with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** The end of what it wrote to stderr (said when it exits early). */
  stderr: () => string;
}

/** Servers still running, killed if the bench fails half-way (killRunningServers). */
const running = new Set<ChildProcess>();

export function killRunningServers(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Runs a bench's `main`; on failure prints the error, kills the servers it started and exits 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    killRunningServers();
    process.exit(1);
  });
}

/**
 * Starts the all-in-one on `dataDir` and resolves once `readyPath` (under the origin, asked with the
 * bench's token) answers 2xx, polled every `everyMs`; rejects with the end of its stderr if it exits
 * first. `nodeArgs` go before the start script (a profiler's flags).
 */
export async function startAllInOne(opts: {
  dataDir: string;
  port: number;
  storagePort: number;
  readyPath: string;
  everyMs: number;
  nodeArgs?: string[];
}): Promise<BenchServer> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), path.join(ROOT, 'scripts/start.cjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(opts.port),
      STORAGE_PORT: String(opts.storagePort),
      DATA_DIR: opts.dataDir,
      LOG_LEVEL: 'warn',
      PATCHBAY_BOOTSTRAP_LOGIN: 'admin',
      PATCHBAY_BOOTSTRAP_PASSWORD: 'bench-password-123',
      PATCHBAY_BOOTSTRAP_TOKEN: BENCH_TOKEN,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  running.add(child);
  void exited.then(() => running.delete(child));
  const server = { child, origin: `http://127.0.0.1:${opts.port}`, exited, stderr: () => stderr };
  await untilAnswers(server, opts.readyPath, opts.everyMs);
  return server;
}

/** Polls `readyPath` until it answers 2xx; fails with the end of its stderr if the server exits first. */
export async function untilAnswers(server: BenchServer, readyPath: string, everyMs: number): Promise<void> {
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(`the server exited with ${server.child.exitCode}: ${server.stderr()}`);
    const res = await fetch(`${server.origin}${readyPath}`, {
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
      signal: AbortSignal.timeout(1000),
    }).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
