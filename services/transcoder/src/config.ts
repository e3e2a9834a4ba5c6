import os from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import { SHUTDOWN_GRACE_MS, scratchRootOf } from '@patchbay/platform';
import type { TranscoderSettings } from './service';

export const TranscoderConfig = {
  /**
   * Local scratch space for ffmpeg's inputs and outputs, an encrypted upload's plaintext among them
   * (docs/security.md). Empty (the default): `<DATA_DIR>/transcoder-scratch`, private (0700), where
   * every Patchbay process on the data directory removes a dead worker's files at its start.
   */
  TRANSCODER_SCRATCH_DIR: Type.String({ default: '' }),
  /** ffmpeg processes at once per replica for upload-time jobs (default: one per CPU). */
  TRANSCODER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: Math.max(1, os.cpus().length) }),
  /**
   * ffmpeg processes at once per replica for download-time copies (`?f=`/`?br=`): slots of their
   * own beside TRANSCODER_CONCURRENCY's, run at a lower CPU priority (default: half the CPUs, at least 1).
   */
  TRANSCODER_DOWNLOAD_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: Math.max(1, Math.floor(os.cpus().length / 2)),
  }),
  /**
   * Download-time copies that may wait for a slot per replica; one more is answered 503 with
   * Retry-After at once (default 16).
   */
  TRANSCODER_DOWNLOAD_QUEUE: Type.Integer({ minimum: 0, maximum: 10000, default: 16 }),
  /** Longest a single ffmpeg run may take (ms). */
  TRANSCODER_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 600000 }),
  /**
   * At shutdown, how long upload-time jobs in flight may go on finishing (ms); then ffmpeg is
   * killed and each job is handed back to the queue for another replica at once. At most the
   * process's shutdown grace less 5 s, left for the kill, the hand-back and closing connections.
   */
  TRANSCODER_DRAIN_MS: Type.Integer({ minimum: 0, maximum: SHUTDOWN_GRACE_MS - 5000, default: 10000 }),
  /** The ffmpeg / ffprobe to use first; when unset or not working, the one on PATH, then the npm one. */
  FFMPEG_PATH: Type.Optional(Type.String({ minLength: 1 })),
  FFPROBE_PATH: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Whether the static builds shipped in the optional npm packages `@ffmpeg-installer/linux-x64`
   * and `@ffprobe-installer/linux-x64` may be used when neither FFMPEG_PATH nor PATH gives a
   * working binary (a bare machine). `false` makes a missing system ffmpeg show as such.
   */
  TRANSCODER_NPM_FFMPEG: Type.Boolean({ default: true }),
  /** Where `ffmpeg` and `ffprobe` are looked up (the process's own search path). */
  PATH: Type.String({ default: '' }),
};

export const transcoderSchema = Type.Object(TranscoderConfig);
export type TranscoderConfigValues = Static<typeof transcoderSchema>;

/** The one mapping from configuration to settings, used by main.ts and the all-in-one process alike. */
export function transcoderSettings(c: TranscoderConfigValues & { DATA_DIR: string }): TranscoderSettings {
  return {
    scratchDir: c.TRANSCODER_SCRATCH_DIR || scratchRootOf(c.DATA_DIR),
    concurrency: c.TRANSCODER_CONCURRENCY,
    downloadConcurrency: c.TRANSCODER_DOWNLOAD_CONCURRENCY,
    downloadQueue: c.TRANSCODER_DOWNLOAD_QUEUE,
    timeoutMs: c.TRANSCODER_TIMEOUT_MS,
    drainMs: c.TRANSCODER_DRAIN_MS,
    binaries: {
      ffmpegPath: c.FFMPEG_PATH,
      ffprobePath: c.FFPROBE_PATH,
      searchPath: c.PATH,
      npm: c.TRANSCODER_NPM_FFMPEG,
    },
  };
}
