/**
 * One data directory, one owner (docs/security.md "The data directory"): a second Patchbay on the
 * running instance's DATA_DIR exits non-zero at once, naming the lock file and the PID holding it,
 * and the running instance carries on. In the distributed mode the lock is each stateful service's:
 * a second identity service on the same directory is refused the same way.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findInGroup } from '../../bench/lib/proc';
import { freePort, releasePorts } from '../harness/free-port';
import { START_SCRIPT } from '../harness/patchbay';
import { API, http, instance, mode } from '../harness/api';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** Runs `entry` on the instance's DATA_DIR until it exits: its exit code and what it wrote to stderr. */
async function secondProcess(
  entry: string,
  env: Record<string, string>,
): Promise<{ code: number | null; err: string }> {
  // The launcher is plain JavaScript (node runs it); a service's main.ts goes through tsx.
  const [command, args] = entry.endsWith('.cjs')
    ? [process.execPath, [path.join(ROOT, entry)]]
    : [TSX, [path.join(ROOT, entry)]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: instance().dataDir, LOG_LEVEL: 'warn', NATS_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (b: Buffer) => (err += b.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, err };
}

/** The lock file and PID the refusal names; the PID must be a process of the running instance. */
function refusal(err: string): { file: string; pid: number } {
  const m = /(\S+patchbay\.lock) is held by PID (\d+)/.exec(err);
  if (!m) throw new Error(`no lock named in:\n${err}`);
  return { file: m[1], pid: Number(m[2]) };
}

/** With MongoDB the stores are not under DATA_DIR: nothing there to own, and no lock (docs/security.md). */
const embeddedStore = !process.env.MONGODB_URL;

if (!embeddedStore)
  test('with MongoDB no store is under DATA_DIR, and no lock is taken there', () => {
    const locks = fs
      .readdirSync(instance().dataDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.name === 'patchbay.lock');
    expect(locks).toEqual([]);
  });

if (embeddedStore)
  test('a second all-in-one process on the same DATA_DIR exits non-zero, naming the lock and its holder', async () => {
    const inst = instance();
    const [port, storagePort] = [await freePort(), await freePort()];
    try {
      const { code, err } = await secondProcess(START_SCRIPT, {
        PORT: String(port),
        STORAGE_PORT: String(storagePort),
      });
      expect(code).toBe(1);
      const { file, pid } = refusal(err);
      expect(file).toBe(path.join(inst.dataDir, 'identity', 'patchbay.lock'));
      // The holder is the running instance (its all-in-one process, or its identity service).
      expect(findInGroup(inst.pid, mode() === 'embedded' ? START_SCRIPT : 'identity/src/main.ts')).toContain(pid);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid });
    } finally {
      releasePorts(port);
      releasePorts(storagePort);
    }
    // The instance never noticed.
    const res = await http().get(`${API}/oauth/whoami`).set('Authorization', `Bearer ${inst.token}`);
    expect(res.status).toBe(200);
  }, 90000);

if (embeddedStore && mode() === 'distributed')
  test('a second identity service on the same DATA_DIR exits non-zero, naming the lock and its holder', async () => {
    const inst = instance();
    const { code, err } = await secondProcess('services/identity/src/main.ts', { NATS_URL: inst.natsUrl ?? '' });
    expect(code).toBe(1);
    const { file, pid } = refusal(err);
    expect(file).toBe(path.join(inst.dataDir, 'identity', 'patchbay.lock'));
    expect(findInGroup(inst.pid, 'identity/src/main.ts')).toContain(pid);
  }, 90000);
