import { spawn } from 'node:child_process';
import path from 'node:path';

export class FfmpegError extends Error {
  constructor(message: string, readonly stderr: string) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export interface RunOptions {
  /** Longest the run may take; then the child is killed and the run fails with FfmpegError. */
  timeoutMs: number;
  /**
   * Aborting kills the child (SIGKILL: its output is scratch, thrown away, so there is nothing to
   * flush) and the run rejects with the signal's reason — not an FfmpegError, since the input is
   * not at fault. An already aborted signal rejects without starting anything.
   */
  signal?: AbortSignal;
  /** Receives stdout as it comes (ffmpeg's `-progress` lines) instead of it being collected. */
  onStdout?: (chunk: Buffer) => void;
}

/**
 * Runs ffmpeg or ffprobe to completion with a time limit; resolves with stdout (empty when
 * `onStdout` takes it), rejects with the tail of stderr (ffmpeg explains itself there). Settles
 * only once the child has exited, so the caller may remove its files right after.
 */
export function run(bin: string, args: string[], opts: RunOptions): Promise<string> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => { if (opts.onStdout) opts.onStdout(b); else out.push(b); });
    child.stderr.on('data', (b: Buffer) => { err = (err + b.toString()).slice(-4000); });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    const name = path.basename(bin);
    child.on('error', (e) => { clearTimeout(timer); reject(new FfmpegError(`${name} could not start: ${e.message}`, err)); });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else if (signal?.aborted) reject(signal.reason);
      else reject(new FfmpegError(`${name} failed (${sig ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' | ') || 'no output'}`, err));
    });
  });
}
