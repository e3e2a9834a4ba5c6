/**
 * A stand-in transcoder worker, run as its own process with tsx: it claims a worker directory under
 * the scratch root `argv[2]` and starts a long ffmpeg writing into it — through the transcoder's own
 * `run` (`argv[3]` = `guarded`: setpriv's parent-death signal) or as a plain detached child
 * (`plain`: what an ffmpeg without that protection does when its worker dies). It prints its directory and
 * PID (tsx runs the script in a child process of its own) as JSON, then waits to be killed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../../src/ffmpeg/run';
import { claimWorkerDir } from '@patchbay/platform';

async function main(): Promise<void> {
  const [root, mode] = process.argv.slice(2);
  const { dir } = await claimWorkerDir(root);
  const job = path.join(dir, 'job');
  fs.mkdirSync(job);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=600',
    '-f',
    'wav',
    path.join(job, 'output.wav'),
  ];
  if (mode === 'guarded') void run('ffmpeg', args, { timeoutMs: 600_000 }).catch(() => undefined);
  else spawn('ffmpeg', args, { stdio: 'ignore', detached: true }).unref();
  process.stdout.write(`${JSON.stringify({ dir, pid: process.pid })}\n`);
  setInterval(() => undefined, 60_000);
}

void main();
