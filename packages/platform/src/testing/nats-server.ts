import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { releasePorts, reservePorts } from './ports';

/** Where Debian's `nats-server` package puts the binary; `NATS_SERVER_BIN` overrides it. */
const DEFAULT_BIN = '/usr/sbin/nats-server';
const START_LIMIT_MS = 10_000;
const STOP_LIMIT_MS = 5000;

export interface NatsServerHandle {
  /** `nats://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** JetStream store directory (a fresh temporary directory, removed by `stop`). */
  storeDir: string;
  /** Stops the server (SIGTERM, then SIGKILL) and removes its store directory. */
  stop(): Promise<void>;
  /**
   * Stops the server and starts it again on the same port with the same store, so streams,
   * consumers and their positions survive — what a production restart looks like to clients.
   * `downMs` keeps it down that long in between; `crash` stops it with SIGKILL (kill -9) instead of
   * SIGTERM, so it neither drains nor says goodbye to its clients.
   */
  restart(opts?: { downMs?: number; crash?: boolean }): Promise<void>;
}

/**
 * Starts a private `nats-server` for a test suite: 127.0.0.1 only, a free port (never 4222),
 * JetStream on by default, a temporary store. Resolves once it accepts connections.
 */
export async function startNatsServer(opts: { jetstream?: boolean } = {}): Promise<NatsServerHandle> {
  const bin = process.env.NATS_SERVER_BIN ?? DEFAULT_BIN;
  if (!existsSync(bin))
    throw new Error(`nats-server not found at ${bin}: install the Debian package nats-server (or set NATS_SERVER_BIN)`);
  // Reserved rather than merely free: `restart` binds the same port again after a pause.
  const port = await reservePorts(1);
  const storeDir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-nats-'));
  const args = [...(opts.jetstream === false ? [] : ['-js']), '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir];
  let child = await launch(bin, args, port);
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    async stop() {
      await terminate(child);
      await rm(storeDir, { recursive: true, force: true });
      releasePorts(port);
    },
    async restart(r = {}) {
      await terminate(child, r.crash ? 'SIGKILL' : 'SIGTERM');
      if (r.downMs) await sleep(r.downMs);
      child = await launch(bin, args, port);
    },
  };
}

async function launch(bin: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // Keep the tail of the log for error messages; reading it also stops a full pipe from blocking the server.
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`nats-server exited (code ${code}, signal ${signal}):\n${log}`)),
    );
  });
  exited.catch(() => undefined);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const deadline = Date.now() + START_LIMIT_MS;
  while (!(await Promise.race([accepts(port), exited]))) {
    if (Date.now() > deadline) {
      await terminate(child);
      throw new Error(`nats-server did not accept connections on port ${port} within ${START_LIMIT_MS} ms:\n${log}`);
    }
    await sleep(50);
  }
  return child;
}

/** Stops a server by its PID: SIGTERM (or `signal`), then SIGKILL if it lingers; resolves once it has exited. */
async function terminate(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
  await exited;
  clearTimeout(timer);
}

/** True once something on 127.0.0.1:port speaks first (a nats-server greets with INFO). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('data', (d) => done(d.toString().startsWith('INFO')));
    socket.once('error', () => done(false));
  });
}
