/**
 * `pnpm start` and `pnpm start:distributed` pass SIGTERM and SIGINT on (docs/security.md "The data
 * directory"): a signal to the pnpm process stops Patchbay gracefully, and no process of it is left
 * running (pnpm signals its script's shell, which, unless it `exec`s, dies without passing the signal on
 * and leaves Patchbay running unmanaged — and holding the data directory).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNatsServer } from '../../packages/platform/src/testing/nats-server';
import { exitOf } from '../distributed/service-process';
import { releasePorts, reservePorts } from '../harness/free-port';
import { mode } from '../harness/api';
import { groupMembers } from '../support/process-group';

const ROOT = path.resolve(__dirname, '../..');

const signals = mode() === 'embedded' ? (['SIGTERM', 'SIGINT'] as const) : (['SIGTERM'] as const);

test.each(signals)(
  `%s to the pnpm process of \`pnpm ` +
    `${mode() === 'embedded' ? 'start' : 'start:distributed'}\` stops ` +
    `Patchbay: no process left`,
  async (signal) => {
    const nats = mode() === 'distributed' ? await startNatsServer() : undefined;
    const ports = await reservePorts(4);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-signals-'));
    const child = spawn('pnpm', [mode() === 'embedded' ? 'start' : 'start:distributed'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(ports),
        STORAGE_PORT: String(ports + 1),
        DATA_DIR: dataDir,
        NATS_URL: nats?.url ?? '',
        // Signals, not stores: the embedded ones, whatever the suite runs against (test:mongo, test:s3).
        MONGODB_URL: '',
        BLOB_STORE_URL: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: what is left of it can be found afterwards
    });
    const pgid = child.pid as number;
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not running within 120 s:\n${out}`)), 120000);
        const keep = (b: Buffer) => {
          out += b.toString();
          if (out.includes('Patchbay is running.')) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout?.on('data', keep);
        child.stderr?.on('data', keep);
        child.once('exit', (code) => reject(new Error(`pnpm exited with ${code}:\n${out}`)));
      });
      // The group and its descendants: the distributed launcher runs each service in a group of its own.
      const running = groupMembers(pgid);
      // Embedded: pnpm and the node running the bundle (scripts/start.cjs); distributed: every service too.
      expect(running.length).toBeGreaterThan(mode() === 'embedded' ? 1 : 10);
      process.kill(pgid, signal); // the pnpm process alone, as a supervisor or `kill <pid>` does
      await Promise.all(running.map((pid) => exitOf(pid, 40000)));
      expect(groupMembers(pgid)).toEqual([]);
      // It stopped gracefully: its data directory's locks were released.
      expect(fs.existsSync(path.join(dataDir, 'identity', 'patchbay.lock'))).toBe(false);
    } finally {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        /* all gone */
      }
      await nats?.stop();
      releasePorts(ports, 4);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
  180000,
);
