import path from 'node:path';
import type { AgeSummary } from '@patchbay/age';
import { UnavailableError, UnprocessableError, type TranscodeRequest } from '@patchbay/contracts';
import type { BlobStore, Bus, Logger } from '@patchbay/platform';
import { planOutput, type OutputPlan } from './domain/output-plan';
import { FORMATS } from './ffmpeg/formats';
import { probe, type ProbeResult } from './ffmpeg/probe';
import { FfmpegError } from './ffmpeg/run';
import { transcode } from './ffmpeg/transcode';
import type { Limiter } from './limiter';
import { fetchBlob, storeBlob, storeSealedBlob, withScratch } from './workspace';

export interface JobDeps {
  bus: Bus;
  blobs: BlobStore;
  log: Logger;
  limiter: Limiter;
  scratchDir: string;
  timeoutMs: number;
  /** A lower CPU priority for this kind of work's ffmpeg (download-time copies; see RunOptions.nice). */
  nice?: number;
}

/** What to convert: the download-time request's shape (messages/transcoder.ts). */
export type ConvertRequest = TranscodeRequest;

export interface ConvertOptions {
  /** Probe the result too, to describe the stored file (upload jobs). */
  describe?: boolean;
  /** The output is a download-time copy that can be made again: stored without waiting for the disk. */
  cacheCopy?: boolean;
  onProgress?: (p: number) => void;
  signal?: AbortSignal;
  /** Identifies the work in logs (a file SID). */
  subject?: string;
  /** The source is an encrypted upload: read back with its file key (decisions §43). */
  fileKey?: Buffer;
  /** Store the result as an age file encrypted to these public keys (never in clear). */
  sealTo?: readonly string[];
}

/**
 * Transcodes `blob_key` into a new blob at `output_key` (atomic: a reader never sees half of it).
 * The source is probed when the encoder settings depend on it (a bitrate for a lossy target) or
 * when `describe` asks (duration, for progress; a clear error when it has no audio); `describe`
 * probes the result too. A download without a bitrate only wants the bytes, and ffmpeg itself
 * refuses what it cannot decode. Aborting `signal` gives up a place waiting for a free slot, or
 * kills ffmpeg/ffprobe, and rejects with the abort reason; the scratch files go either way.
 * Errors are for people (UnprocessableError naming `data`); ffmpeg's words go to the log.
 */
export async function convert(
  deps: JobDeps,
  req: ConvertRequest,
  opts: ConvertOptions = {},
): Promise<{ size: number; probe: ProbeResult | null; sealed: AgeSummary | null }> {
  const { signal } = opts;
  const spec = FORMATS[req.target];
  if (!spec) throw UnprocessableError.field('f', `${req.target} is not a format Patchbay can write`);
  return deps.limiter.run(
    () =>
      withScratch(deps.scratchDir, async (dir) => {
        const input = path.join(dir, 'input');
        const output = path.join(dir, `output.${spec.extension}`);
        await fetchBlob(deps.blobs, req.blob_key, input, signal, opts.fileKey);
        let result: ProbeResult | null = null;
        try {
          const source =
            opts.describe || (req.bitrate !== null && spec.bitrate)
              ? await probe(input, req.source_format, signal)
              : null;
          if (source && source.duration === null)
            throw UnprocessableError.field('data', 'the file has no audio to transcode');
          const plan = planOutput(req.target, req.bitrate, source ?? { sampleRate: null, channels: null });
          logAdjusted(deps.log, req, plan, source, opts.subject);
          await transcode({
            input,
            sourceFormat: req.source_format,
            output,
            target: req.target,
            plan,
            duration: source?.duration ?? null,
            onProgress: opts.onProgress,
            timeoutMs: deps.timeoutMs,
            signal,
            nice: deps.nice,
          });
          if (opts.describe) result = await probe(output, req.target, signal);
        } catch (err) {
          throw forPeople(deps.log, err, req, deps.timeoutMs, opts.subject);
        }
        if (opts.sealTo) {
          const sealed = await storeSealedBlob(deps.blobs, req.output_key, output, opts.sealTo);
          return { size: sealed.file_bytes, probe: result, sealed };
        }
        const size = await storeBlob(deps.blobs, req.output_key, output, { durable: !opts.cacheCopy });
        return { size, probe: result, sealed: null };
      }),
    signal,
  );
}

/** A bitrate the encoder cannot reach as asked is worth a line: the output differs from the request. */
function logAdjusted(
  log: Logger,
  req: ConvertRequest,
  plan: OutputPlan,
  source: ProbeResult | null,
  subject?: string,
): void {
  if (plan.bitrate === null || req.bitrate === null) return;
  const resampled =
    source && (plan.sampleRate !== source.sampleRate || plan.channels !== Math.min(2, source.channels ?? 2));
  if (plan.bitrate === req.bitrate && !resampled) return;
  log.info(
    {
      file: subject ?? req.blob_key,
      target: req.target,
      asked_kbps: req.bitrate,
      kbps: plan.bitrate,
      sample_rate: plan.sampleRate,
      channels: plan.channels,
      source_rate: source?.sampleRate,
      source_channels: source?.channels,
    },
    'bitrate fitted to what the encoder can do at this sample rate',
  );
}

/**
 * ffmpeg's failures as errors a client can read: the source is not decodable audio, or takes too
 * long; a missing ffmpeg is this server's fault (503). The details (stderr, temporary paths) are
 * logged with the file, never returned.
 */
export function forPeople(
  log: Logger,
  err: unknown,
  req: ConvertRequest,
  timeoutMs: number,
  subject?: string,
): unknown {
  if (!(err instanceof FfmpegError)) return err;
  log.warn(
    {
      file: subject ?? req.blob_key,
      source_format: req.source_format,
      target: req.target,
      reason: err.reason,
      err: err.message,
    },
    'ffmpeg failed',
  );
  if (err.reason === 'spawn') return new UnavailableError({ message: 'the transcoder cannot run ffmpeg' });
  if (err.reason === 'timeout')
    return UnprocessableError.field(
      'data',
      `the file takes longer to transcode than the limit of ${Math.round(timeoutMs / 1000)} s`,
    );
  return UnprocessableError.field('data', 'the file is not decodable audio');
}
