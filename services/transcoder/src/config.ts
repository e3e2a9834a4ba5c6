import os from 'node:os';
import { Type } from '@sinclair/typebox';
import { SHUTDOWN_GRACE_MS } from '@patchbay/platform';
import { defaultScratchRoot } from './workspace';

export const TranscoderConfig = {
  /** Local scratch space for ffmpeg's inputs and outputs. */
  TRANSCODER_SCRATCH_DIR: Type.String({ default: defaultScratchRoot() }),
  /** ffmpeg processes at once per replica (default: one per CPU). */
  TRANSCODER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: Math.max(1, os.cpus().length) }),
  /** Longest a single ffmpeg run may take (ms). */
  TRANSCODER_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 600000 }),
  /**
   * At shutdown, how long upload-time jobs in flight may go on finishing (ms); then ffmpeg is
   * killed and each job is handed back to the queue for another replica at once. At most the
   * process's shutdown grace less 5 s, left for the kill, the hand-back and closing connections.
   */
  TRANSCODER_DRAIN_MS: Type.Integer({ minimum: 0, maximum: SHUTDOWN_GRACE_MS - 5000, default: 10000 }),
};
