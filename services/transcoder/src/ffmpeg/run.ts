import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { inSpan } from '@patchbay/platform';
import { guarded } from './child-guard';

/** Why a run failed: the input (`failed`), the time limit (`timeout`), or ffmpeg itself missing (`spawn`). */
export type FfmpegFailure = 'failed' | 'timeout' | 'spawn';

/**
 * A failed ffmpeg/ffprobe run. `message` and `stderr` are for the log only: they hold temporary
 * paths and ffmpeg's own words, never to be shown to an API client.
 */
export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly reason: FfmpegFailure = 'failed',
  ) {
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
  /** Receives stdout as it comes (ffmpeg's `-progress` lines, or a streamed output) instead of it being collected. */
  onStdout?: (chunk: Buffer) => void;
  /**
   * Fed to the child's stdin (`-i pipe:0`). A child that exits before reading it all is not an
   * error of the feed; a feed that fails (the blob store) kills the child and the run rejects with
   * the feed's error.
   */
  stdin?: Readable;
  /**
   * Instead of `stdin`: an open file the child reads as its stdin itself (the descriptor is shared,
   * so this process moves none of the bytes; its offset tells how far the child has read).
   */
  stdinFd?: number;
  /** The child's working directory: its run's scratch, so an operator (or a test) can tell whose it is. */
  cwd?: string;
  /**
   * A lower CPU priority for the child (a nice value, 1–19): download-time runs yield the cores to
   * upload-time jobs. Where the priority cannot be set the child runs at the normal one.
   */
  nice?: number;
}

/** setpriv's exit status when it cannot exec the command (the shell convention). */
const EXEC_FAILED = 127;

/**
 * Runs ffmpeg or ffprobe to completion with a time limit; resolves with stdout (empty when
 * `onStdout` takes it), rejects with the tail of stderr (ffmpeg explains itself there). Settles
 * only once the child has exited, so the caller may remove its files right after. The child dies
 * with this process where the platform allows (child-guard.ts).
 */
export function run(bin: string, args: string[], opts: RunOptions): Promise<string> {
  // A span per run (`ffmpeg`, `ffprobe`): where a job's time went. The arguments hold scratch paths, not kept.
  const name = path.basename(bin);
  return inSpan(name, { attributes: { 'process.executable.name': name, 'patchbay.ffmpeg.nice': opts.nice ?? 0 } }, () =>
    runChild(bin, args, opts),
  );
}

function runChild(bin: string, args: string[], opts: RunOptions): Promise<string> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const [command, argv] = guarded(bin, args);
    const child = spawn(command, argv, { stdio: [opts.stdinFd ?? 'pipe', 'pipe', 'pipe'], cwd: opts.cwd });
    let feedError: unknown = null;
    const stdin = child.stdin; // null when the child reads a file of its own (stdinFd)
    // EPIPE when the child stops reading (it failed, or needs no more): its exit says what happened.
    stdin?.on('error', () => undefined);
    if (opts.stdin && stdin) {
      opts.stdin.once('error', (e) => {
        feedError = e;
        child.kill('SIGKILL');
      });
      opts.stdin.pipe(stdin);
    } else stdin?.end();
    // setpriv execs ffmpeg in place, so the PID (and the priority set on it) is ffmpeg's.
    if (opts.nice && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, opts.nice);
      } catch {
        /* not allowed here: the normal priority */
      }
    }
    const out: Buffer[] = [];
    let err = '';
    let timedOut = false;
    // stdout and stderr are pipes in every case (only stdin may be a descriptor): typed nullable, never null.
    child.stdout?.on('data', (b: Buffer) => {
      if (opts.onStdout) opts.onStdout(b);
      else out.push(b);
    });
    child.stderr?.on('data', (b: Buffer) => {
      err = (err + b.toString()).slice(-4000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    const name = path.basename(bin);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new FfmpegError(`${name} could not start: ${e.message}`, err, 'spawn'));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (stdin) opts.stdin?.unpipe(stdin);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else if (signal?.aborted) reject(signal.reason);
      else if (feedError) reject(feedError);
      else if (timedOut)
        reject(new FfmpegError(`${name} killed after its time limit of ${opts.timeoutMs} ms`, err, 'timeout'));
      else if (code === EXEC_FAILED && command !== bin)
        reject(new FfmpegError(`${name} could not start: ${err.trim() || 'setpriv could not run it'}`, err, 'spawn'));
      else
        reject(
          new FfmpegError(
            `${name} failed (${sig ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' | ') || 'no output'}`,
            err,
          ),
        );
    });
  });
}
