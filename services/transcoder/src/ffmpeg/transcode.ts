import { spawn } from 'node:child_process';
import { ffmpegPath } from './binaries';
import { FORMATS, inputArgs } from './formats';
import { FfmpegError } from './run';

export interface TranscodeOptions {
  input: string;
  /** `content_format` of the source (names headerless inputs). */
  sourceFormat: string | null;
  output: string;
  target: string;
  /** kbit/s, for targets that take one. */
  bitrate: number | null;
  /** Source duration in seconds, to turn ffmpeg's progress into a percentage. */
  duration: number | null;
  onProgress?: (percent: number) => void;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * One ffmpeg run from a local file to a local file. Progress comes from `-progress pipe:1`
 * (`out_time_us`), so it needs no parsing of the human log. Rejects with FfmpegError (the tail of
 * ffmpeg's stderr) when the input is not decodable audio or the run fails.
 */
export function transcode(opts: TranscodeOptions): Promise<void> {
  const spec = FORMATS[opts.target];
  if (!spec) return Promise.reject(new FfmpegError(`unknown target format ${opts.target}`, ''));
  const args = [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...inputArgs(opts.sourceFormat), '-i', opts.input,
    '-map', '0:a:0', '-vn', ...spec.output, ...(opts.bitrate && spec.bitrate ? ['-b:a', `${opts.bitrate}k`] : []),
    '-progress', 'pipe:1', '-nostats', opts.output,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let pending = '';
    child.stderr.on('data', (b: Buffer) => { err = (err + b.toString()).slice(-4000); });
    child.stdout.on('data', (b: Buffer) => {
      const lines = (pending + b.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m && opts.duration && opts.onProgress) opts.onProgress(Math.min(99, Math.floor((Number(m[1]) / 1e6 / opts.duration) * 100)));
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    const onAbort = () => child.kill('SIGKILL');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => { clearTimeout(timer); reject(new FfmpegError(`ffmpeg could not start: ${e.message}`, err)); });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve();
      else reject(new FfmpegError(`ffmpeg failed (${sig ?? `exit ${code}`}): ${err.trim().split('\n').slice(-2).join(' | ') || 'no output'}`, err));
    });
  });
}
