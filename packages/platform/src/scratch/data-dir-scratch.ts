import path from 'node:path';
import type { Logger } from '../logging/logger';
import { sweepScratch, type SweepResult } from './scratch-sweep';

/** The transcoder's scratch root under a data directory (its default TRANSCODER_SCRATCH_DIR). */
export const SCRATCH_SUBDIR = 'transcoder-scratch';

/**
 * An old-layout job directory (a bare UUID) found by a process other than a transcoder is removed once
 * untouched this long: twice the transcoder's default run limit (TRANSCODER_TIMEOUT_MS, 10 min).
 */
const LEGACY_MS = 20 * 60_000;

/** `<DATA_DIR>/transcoder-scratch`, absolute. */
export function scratchRootOf(dataDir: string): string {
  return path.resolve(dataDir, SCRATCH_SUBDIR);
}

/**
 * Removes what dead transcoder workers left in the data directory's scratch root — an encrypted
 * upload's plaintext among it, after a kill -9 mid-transcode — and kills the ffmpeg they left
 * running. Every Patchbay process that claims the data directory runs it at start (decisions §51),
 * so the files do not wait for the next transcoder start; the transcoder sweeps its own root too,
 * at start and every minute. Live workers' directories (this host's or another's) are never touched.
 * A failure is logged, never fatal.
 */
export async function sweepDataDirScratch(dataDir: string, log: Logger): Promise<SweepResult | null> {
  const root = scratchRootOf(dataDir);
  try {
    const result = await sweepScratch(root, log, { own: '', legacyMs: LEGACY_MS });
    if (result.removed.length > 0)
      log.info({ root, removed: result.removed.length }, 'dead transcoder scratch removed');
    return result;
  } catch (err) {
    log.error({ err, root }, 'scratch sweep failed');
    return null;
  }
}
