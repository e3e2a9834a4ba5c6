import os from 'node:os';
import { Type } from '@sinclair/typebox';
import { defaultScratchRoot } from './workspace';

export const TranscoderConfig = {
  /** Local scratch space for ffmpeg's inputs and outputs. */
  TRANSCODER_SCRATCH_DIR: Type.String({ default: defaultScratchRoot() }),
  /** ffmpeg processes at once per replica (default: one per CPU). */
  TRANSCODER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: Math.max(1, os.cpus().length) }),
  /** Longest a single ffmpeg run may take (ms). */
  TRANSCODER_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 600000 }),
};
