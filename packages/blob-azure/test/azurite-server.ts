/**
 * A private Azurite blob service (npm `azurite`, Microsoft's Azure Storage emulator) for a test
 * suite: its own process, 127.0.0.1, a port the kernel picks (read back from its start-up line), a
 * fresh temporary directory that `stop` removes. It knows the well-known development account.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const START_LIMIT_MS = 20_000;

/** Azurite's built-in account and its published key (not a secret: every Azurite has it). */
export const DEV_ACCOUNT = 'devstoreaccount1';
export const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface AzuriteHandle {
  /** The development account's blob URL: `http://127.0.0.1:<port>/devstoreaccount1`. */
  endpoint: string;
  stop(): Promise<void>;
}

export async function startAzurite(): Promise<AzuriteHandle> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-azurite-'));
  const bin = require.resolve('azurite/dist/src/blob/main.js');
  const args = [
    bin,
    '--blobHost',
    '127.0.0.1',
    '--blobPort',
    '0',
    '-l',
    dir,
    '--skipApiVersionCheck',
    '--disableTelemetry',
    '--loose',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  try {
    const port = await listening(child);
    return {
      endpoint: `http://127.0.0.1:${port}/${DEV_ACCOUNT}`,
      async stop() {
        await terminate(child);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await terminate(child);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Waits for "Azurite Blob service successfully listens on http://127.0.0.1:<port>". */
function listening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(
      () => reject(new Error(`azurite did not start within ${START_LIMIT_MS} ms:\n${log}`)),
      START_LIMIT_MS,
    );
    const read = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
      const m = /successfully listens on https?:\/\/[\d.]+:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`azurite exited with code ${code}:\n${log}`));
    });
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
