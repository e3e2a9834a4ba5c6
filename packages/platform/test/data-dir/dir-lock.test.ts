import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE, lockDir } from '../../src/data-dir/dir-lock';
import { currentIdentity, startTimeOf, type ProcessIdentity } from '../../src/data-dir/process-identity';
import { untilTrue } from '../../../../tests/support/poll';

/**
 * The data directory's lock: held while its holder runs, taken over once the holder is gone
 * (SIGKILL, a reused PID, a restarted machine), and by exactly one of several processes that
 * find the same stale lock at once.
 */
const TSX = path.resolve(__dirname, '../../../../node_modules/.bin/tsx');
let root: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-lock-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

/** A real process that runs until killed, and its identity as a lock file names it. */
async function sleeper(): Promise<{ child: ChildProcess; identity: ProcessIdentity }> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => child.once('spawn', r));
  const pid = child.pid as number;
  return { child, identity: { ...currentIdentity(), pid, start: startTimeOf(pid) } };
}
const writeLock = (dir: string, holder: ProcessIdentity) => {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(holder));
};
const exited = (child: ChildProcess) => new Promise((r) => child.once('exit', r));

test('the lock names this process; a holder that runs keeps it: the error names the file and its PID', async () => {
  const dir = path.join(root, 'identity');
  const lock = lockDir(dir);
  expect(JSON.parse(fs.readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid });
  expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  expect(fs.statSync(lock.file).mode & 0o777).toBe(0o600);
  lock.release();
  expect(fs.existsSync(lock.file)).toBe(false);

  const { identity } = await sleeper();
  writeLock(dir, identity);
  const failure = (() => {
    try {
      lockDir(dir);
    } catch (err) {
      return err;
    }
  })();
  expect(failure).toBeInstanceOf(DataDirLockedError);
  expect((failure as Error).message).toContain(`${path.join(dir, LOCK_FILE)} is held by PID ${identity.pid}`);
});

test('a holder killed with SIGKILL leaves a stale lock, which the next process takes over', async () => {
  const dir = path.join(root, 'storage');
  const { child, identity } = await sleeper();
  writeLock(dir, identity);
  expect(() => lockDir(dir)).toThrow(DataDirLockedError);
  child.kill('SIGKILL');
  await exited(child);
  const lock = lockDir(dir);
  expect(JSON.parse(fs.readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid });
  lock.release();
});

test(
  'a holder that exited but was never reaped (a zombie: PID 1 of a ' +
    'container without an init) does not hold the lock',
  async () => {
    const dir = path.join(root, 'records');
    // The shell starts a child that exits a second later, and becomes `sleep` at once (exec), which never
    // reaps it: the child stays a zombie. (A child exiting before the exec would be reaped by the shell.)
    const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const pid = Number((await new Promise<Buffer>((r) => parent.stdout!.once('data', r))).toString().trim());
    await untilTrue(() => /\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')), {
      what: `${pid} to be a zombie`,
      timeoutMs: 15_000,
      everyMs: 50,
    });
    writeLock(dir, { ...currentIdentity(), pid, start: startTimeOf(pid) });
    const lock = lockDir(dir);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  },
);

test(
  'a reused PID (same PID, another start time) or another boot does not ' + 'hold the lock; another host does',
  async () => {
    const dir = path.join(root, 'push');
    const { identity } = await sleeper();
    writeLock(dir, { ...identity, start: String(Number(identity.start ?? 0) + 1) });
    lockDir(dir).release();
    writeLock(dir, { ...identity, boot: 'another-boot' });
    lockDir(dir).release();
    writeLock(dir, { ...identity, host: `not-${os.hostname()}` });
    expect(() => lockDir(dir)).toThrow(/is held by PID \d+ on not-/);
  },
);

test('a lock that names no holder is not taken over', () => {
  const dir = path.join(root, 'records');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, LOCK_FILE), 'garbage');
  expect(() => lockDir(dir)).toThrow(/does not name its holder/);
});

test('release leaves a lock that is no longer ours in place', () => {
  const dir = path.join(root, 'endpoint');
  const lock = lockDir(dir);
  fs.writeFileSync(lock.file, JSON.stringify({ ...currentIdentity(), pid: 1 }));
  lock.release();
  expect(fs.existsSync(lock.file)).toBe(true);
});

test('several processes finding one stale lock at once: exactly one takes it', async () => {
  const dir = path.join(root, 'identity');
  const { child, identity } = await sleeper();
  writeLock(dir, identity);
  child.kill('SIGKILL');
  await exited(child);
  const script = `
    const { lockDir } = require(${JSON.stringify(path.resolve(__dirname, '../../src/data-dir/dir-lock.ts'))});
    const go = Number(process.argv[1]);
    setTimeout(() => {
      try { lockDir(${JSON.stringify(dir)}); process.stdout.write('took'); setTimeout(() => {}, 3000); }
      catch (err) { process.stdout.write(err.name); }
    }, go - Date.now());`;
  const go = Date.now() + 4000; // every child loaded and waiting, then all at once
  const results = await Promise.all(
    Array.from({ length: 4 }, () => {
      const racer = spawn(TSX, ['-e', script, String(go)], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(racer);
      let out = '';
      racer.stdout?.on('data', (b: Buffer) => (out += b.toString()));
      return new Promise<string>((resolve) => racer.once('exit', () => resolve(out)));
    }),
  );
  expect(results.sort()).toEqual(['DataDirLockedError', 'DataDirLockedError', 'DataDirLockedError', 'took']);
}, 30000);
