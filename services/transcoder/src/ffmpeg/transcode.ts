import type { Readable } from 'node:stream';
import type { OutputPlan } from '../domain/output-plan';
import { ffmpegPath } from './binaries';
import { FORMATS, inputArgs } from './formats';
import { FfmpegError, run } from './run';

export interface TranscodeOptions {
  input: string;
  /** `content_format` of the source (names headerless inputs). */
  sourceFormat: string | null;
  output: string;
  target: string;
  /** Sample rate, channels and bitrate for the encoder (domain/output-plan.ts); nulls keep the defaults. */
  plan: OutputPlan;
  /** Source duration in seconds, to turn ffmpeg's progress into a percentage. */
  duration: number | null;
  onProgress?: (percent: number) => void;
  timeoutMs: number;
  /** Aborting kills ffmpeg; the run then rejects with the signal's reason (see run). */
  signal?: AbortSignal;
  /** A lower CPU priority (see RunOptions.nice). */
  nice?: number;
}

/** Encoder settings as ffmpeg arguments: the plan's, else the target's rate constraint, if any. */
function settings(target: string, plan: OutputPlan): string[] {
  const spec = FORMATS[target];
  const args: string[] = [];
  if (plan.sampleRate) args.push('-ar', String(plan.sampleRate));
  else if (spec.rates) args.push('-af', `aformat=sample_rates=${spec.rates.join('|')}`);
  if (plan.channels) args.push('-ac', String(plan.channels));
  if (plan.bitrate && spec.bitrate) args.push('-b:a', `${plan.bitrate}k`);
  return args;
}

/** What a streamed run needs besides the common options: its input fed, its output handed on. */
export interface PipedTranscodeOptions extends Omit<TranscodeOptions, 'input' | 'output' | 'duration' | 'onProgress'> {
  /**
   * The source: its bytes fed to ffmpeg's stdin, or the descriptor of a local file ffmpeg reads as
   * its stdin itself (`descriptor`).
   */
  input: Readable | { descriptor: number };
  /** ffmpeg's output as it writes it (a format that streams: MEDIA_FORMATS' `streams`). */
  onOutput: (chunk: Buffer) => void;
  /** ffmpeg's working directory (the run's scratch: it names no file there). */
  cwd: string;
}

/**
 * One ffmpeg run from a stream to a stream (download-time copies that are sent as they are made,
 * decisions §53): the same encoder settings as `transcode`, input on `pipe:0`, output on `pipe:1`.
 */
export async function transcodePiped(opts: PipedTranscodeOptions): Promise<void> {
  const spec = FORMATS[opts.target];
  if (!spec?.streams) throw new FfmpegError(`${opts.target} cannot be written to a pipe`, '');
  const args = [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...inputArgs(opts.sourceFormat),
    '-i',
    'pipe:0',
    '-map',
    '0:a:0',
    '-vn',
    ...spec.output,
    ...settings(opts.target, opts.plan),
    '-nostats',
    // Full 32 KiB writes, not one per packet: an hour of 8 kHz mp3 is 37,682 writes of ~100 bytes without it
    // (each a wake-up here and a read of the growing file) and 110 with it; the first byte comes as soon.
    '-flush_packets',
    '0',
    'pipe:1',
  ];
  await run(ffmpegPath(), args, {
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    nice: opts.nice,
    ...('descriptor' in opts.input ? { stdinFd: opts.input.descriptor } : { stdin: opts.input }),
    onStdout: opts.onOutput,
    cwd: opts.cwd,
  });
}

/**
 * One ffmpeg run from a local file to a local file. Progress comes from `-progress pipe:1`
 * (`out_time_us`), so it needs no parsing of the human log. Rejects with FfmpegError (the tail of
 * ffmpeg's stderr) when the input is not decodable audio or the run fails.
 */
export async function transcode(opts: TranscodeOptions): Promise<void> {
  const spec = FORMATS[opts.target];
  if (!spec) throw new FfmpegError(`unknown target format ${opts.target}`, '');
  const args = [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    ...inputArgs(opts.sourceFormat),
    '-i',
    opts.input,
    '-map',
    '0:a:0',
    '-vn',
    ...spec.output,
    ...settings(opts.target, opts.plan),
    // Progress only when someone listens (upload jobs); a download-time run spares the pipe.
    ...(opts.onProgress ? ['-progress', 'pipe:1'] : []),
    '-nostats',
    opts.output,
  ];
  let pending = '';
  const onStdout = (b: Buffer) => {
    const lines = (pending + b.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m && opts.duration && opts.onProgress)
        opts.onProgress(Math.min(99, Math.floor((Number(m[1]) / 1e6 / opts.duration) * 100)));
    }
  };
  await run(ffmpegPath(), args, { timeoutMs: opts.timeoutMs, signal: opts.signal, onStdout, nice: opts.nice });
}
