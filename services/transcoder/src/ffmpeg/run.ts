import { spawn } from 'node:child_process';

export class FfmpegError extends Error {
  constructor(message: string, readonly stderr: string) {
    super(message);
    this.name = 'FfmpegError';
  }
}

/**
 * Runs ffmpeg or ffprobe to completion with a time limit; resolves with stdout, rejects with the
 * tail of stderr (ffmpeg explains itself there). The child is killed on timeout or `signal` abort.
 */
export function run(bin: string, args: string[], opts: { timeoutMs: number; signal?: AbortSignal }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => { err = (err + b.toString()).slice(-4000); });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    const onAbort = () => child.kill('SIGKILL');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => { clearTimeout(timer); reject(new FfmpegError(`${bin} could not start: ${e.message}`, err)); });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new FfmpegError(`${bin} failed (${sig ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' | ')}`, err));
    });
  });
}
