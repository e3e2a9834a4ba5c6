/**
 * What a transcoder worker killed with SIGKILL leaves — its ffmpeg and its scratch files — is
 * cleaned up, and what a live worker uses never is, with several workers sharing one scratch root.
 * Real processes: a stand-in worker (support/worker-child.ts) runs a real ffmpeg and is killed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { claimWorkerDir, createLogger, OWNER_FILE, sweepScratch, type OwnerRecord } from '@patchbay/platform';
import { parentDeathSignal } from '../../src/ffmpeg/child-guard';
import { ffmpegIn, killHard, startWorkerChild, until, type WorkerChild } from '../support/processes';

const log = createLogger({ name: 'scratch-sweep-test', level: 'silent' });
const roots: string[] = [];
const children: WorkerChild[] = [];
const newRoot = () => {
  const r = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-scratch-'));
  roots.push(r);
  return r;
};
const LEGACY_MS = 60_000;

afterAll(async () => {
  for (const c of children) await killHard(c).catch(() => undefined);
  for (const r of roots) for (const pid of ffmpegIn(r)) process.kill(pid, 'SIGKILL');
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

/** A worker directory as another worker would have left it, with its owner record changed by `edit`. */
function foreignWorker(root: string, edit: (o: OwnerRecord) => OwnerRecord, ageMs: number): string {
  const dir = path.join(root, `w-${randomUUID()}`);
  fs.mkdirSync(path.join(dir, 'job'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'job', 'input'), Buffer.alloc(1024));
  const owner = edit({
    pid: 1,
    start_time: '1',
    pid_ns: 'pid:[1]',
    boot_id: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    host: 'elsewhere',
    started_at: new Date().toISOString(),
  });
  const file = path.join(dir, OWNER_FILE);
  fs.writeFileSync(file, JSON.stringify(owner));
  const then = new Date(Date.now() - ageMs);
  fs.utimesSync(file, then, then);
  return dir;
}

test('ffmpeg dies with its worker: a SIGKILLed worker leaves no ffmpeg running', async () => {
  expect(parentDeathSignal()).toBe(true);
  const w = await startWorkerChild(newRoot(), 'guarded');
  children.push(w);
  const [ffmpeg] = ffmpegIn(w.dir);
  await killHard(w);
  await until('the orphaned ffmpeg to die', 5000, () => (ffmpegIn(w.dir).includes(ffmpeg) ? undefined : true));
}, 60_000);

test('the sweep kills what a dead worker left running, removes its files, and spares live workers', async () => {
  const root = newRoot();
  // A worker without the parent-death signal, killed: its ffmpeg runs on, writing into its directory.
  const dead = await startWorkerChild(root, 'plain');
  children.push(dead);
  await killHard(dead);
  const orphan = ffmpegIn(dead.dir);
  expect(orphan).toHaveLength(1);
  // Live workers: another process (running its ffmpeg), and this one.
  const live = await startWorkerChild(root, 'plain');
  children.push(live);
  const mine = await claimWorkerDir(root);
  fs.mkdirSync(path.join(mine.dir, 'job'));
  const result = await sweepScratch(root, log, { own: mine.dir, legacyMs: LEGACY_MS });

  expect(result.removed).toEqual([dead.dir]);
  expect(result.killed).toEqual(orphan);
  await until('the orphan to die', 5000, () => (ffmpegIn(dead.dir).length === 0 ? true : undefined));
  expect(fs.existsSync(dead.dir)).toBe(false);
  expect(ffmpegIn(live.dir)).toHaveLength(1);
  expect(fs.readdirSync(live.dir).sort()).toEqual(['job', OWNER_FILE]);
  expect(fs.readdirSync(mine.dir).sort()).toEqual(['job', OWNER_FILE]);
  await mine.release();
}, 60_000);

test(
  'workers that cannot be seen (another PID namespace or boot) are ' +
    'judged by heartbeat; old-layout job directories by age; nothing else ' +
    'is touched',
  async () => {
    const root = newRoot();
    const mine = await claimWorkerDir(root);
    const beating = foreignWorker(root, (o) => o, 5_000);
    const silent = foreignWorker(root, (o) => o, 10 * 60_000);
    const lastBoot = foreignWorker(root, (o) => ({ ...o, boot_id: 'another-boot' }), 0);
    const oldRecent = path.join(root, randomUUID());
    const oldStale = path.join(root, randomUUID());
    for (const d of [oldRecent, oldStale]) {
      fs.mkdirSync(d);
      fs.writeFileSync(path.join(d, 'input'), 'x');
    }
    const past = new Date(Date.now() - 2 * LEGACY_MS);
    for (const f of [oldStale, path.join(oldStale, 'input')]) fs.utimesSync(f, past, past);
    // Not the transcoder's: left alone however old (a volume's lost+found, an operator's file).
    const foreign = path.join(root, 'lost+found');
    fs.mkdirSync(foreign);
    fs.utimesSync(foreign, past, past);

    const result = await sweepScratch(root, log, { own: mine.dir, legacyMs: LEGACY_MS });
    expect(result.removed.sort()).toEqual([silent, lastBoot, oldStale].sort());
    expect(fs.readdirSync(root).sort()).toEqual(
      [path.basename(mine.dir), path.basename(beating), path.basename(oldRecent), 'lost+found'].sort(),
    );
    await mine.release();
  },
);

test('a worker that is only a zombie (killed, its parent has not reaped it) is dead', async () => {
  const root = newRoot();
  const mine = await claimWorkerDir(root);
  // The child exits after the shell has become `sleep 30`, which never reaps it: a zombie. (A child
  // that exits at once may be reaped by the shell before its exec, and then there is no zombie.)
  const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const zombie = Number(
    await new Promise<string>((resolve) => parent.stdout!.once('data', (b: Buffer) => resolve(b.toString().trim()))),
  );
  const stat = await until('the zombie', 5000, () => {
    const s = fs.readFileSync(`/proc/${zombie}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).startsWith('Z') ? s : undefined;
  });
  const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  const dir = foreignWorker(
    root,
    (o) => ({ ...o, pid: zombie, start_time: startTime, pid_ns: fs.readlinkSync('/proc/self/ns/pid') }),
    0,
  );
  try {
    const result = await sweepScratch(root, log, { own: mine.dir, legacyMs: LEGACY_MS });
    expect(result.removed).toEqual([dir]);
  } finally {
    parent.kill('SIGKILL');
    await mine.release();
  }
});
