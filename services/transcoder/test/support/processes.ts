import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { until } from '../../../../tests/support/poll';

export { until };

const TSX = path.resolve(__dirname, '../../../../node_modules/.bin/tsx');

/** PIDs of running ffmpeg processes with an argument inside `dir` (zombies and exited ones left out). */
export function ffmpegIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (comm === 'ffmpeg' && state !== 'Z' && args.some((a) => a.startsWith(`${dir}/`))) found.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}

export interface WorkerChild {
  /** The tsx launcher. */
  child: ChildProcess;
  /** The worker itself (tsx's own child): the parent of its ffmpeg. */
  pid: number;
  dir: string;
}

/** Starts support/worker-child.ts; resolves once its ffmpeg runs. */
export async function startWorkerChild(root: string, mode: 'guarded' | 'plain'): Promise<WorkerChild> {
  const child = spawn(TSX, [path.join(__dirname, 'worker-child.ts'), root, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`worker child exited with ${code}`)));
  });
  const { dir, pid } = JSON.parse(line) as { dir: string; pid: number };
  await until("the worker child's ffmpeg", 20_000, () => (ffmpegIn(dir).length > 0 ? true : undefined));
  return { child, pid, dir };
}

/** SIGKILL to the worker, as a crash or an OOM kill would; resolves once it and its launcher are gone. */
export async function killHard(w: WorkerChild): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (w.child.exitCode !== null || w.child.signalCode !== null) resolve();
    else w.child.once('exit', () => resolve());
  });
  process.kill(w.pid, 'SIGKILL');
  await exited;
}
