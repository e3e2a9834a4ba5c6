import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { errorCode, errorMessage, fieldOf } from '@patchbay/platform';
import type { Candidate } from './candidates';

const exec = promisify(execFile);

/** A binary that runs: where it came from, and what it says of itself. */
export interface Inspected extends Candidate {
  /** The version from its banner (`5.1.9-0+deb12u1`, `N-47683-g0e8eb07980-static`). */
  version: string;
  /** Audio encoders it has (ffmpeg only; empty for ffprobe). */
  encoders: ReadonlySet<string>;
}

/** A candidate that does not run, and why (for the log and the 503s). */
export interface Rejected extends Candidate {
  reason: string;
}

const TIMEOUT_MS = 15_000;

/** `-encoders` lists one per line: ` A....D aac   AAC (Advanced Audio Coding)`; audio lines start with A. */
export function parseEncoders(listing: string): Set<string> {
  const names = new Set<string>();
  for (const line of listing.split('\n')) {
    const m = /^\s*A[A-Z.]{5}\s+(\S+)/.exec(line);
    if (m) names.add(m[1]);
  }
  return names;
}

/** The version word of a banner's first line (`ffmpeg version 5.1.9-0+deb12u1 Copyright …`). */
export function parseVersion(banner: string): string {
  return /version\s+(\S+)/.exec(banner.split('\n')[0] ?? '')?.[1] ?? 'unknown';
}

/**
 * Runs the candidate (`-version`, and `-encoders` for ffmpeg) to learn whether it works at all
 * and what it can write. A binary that cannot start, crashes or hangs is rejected with the reason
 * in plain words; nothing here throws.
 */
export async function inspect(tool: 'ffmpeg' | 'ffprobe', c: Candidate): Promise<Inspected | Rejected> {
  try {
    const version = parseVersion((await exec(c.path, ['-hide_banner', '-version'], { timeout: TIMEOUT_MS })).stdout);
    const encoders =
      tool === 'ffmpeg'
        ? parseEncoders(
            (await exec(c.path, ['-hide_banner', '-encoders'], { timeout: TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }))
              .stdout,
          )
        : new Set<string>();
    return { ...c, version, encoders };
  } catch (err) {
    // execFile's rejection is an Error carrying the child's `code`, `killed` and `stderr` (node:child_process).
    const code = errorCode(err);
    const stderr = fieldOf(err, 'stderr');
    const reason =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'is not executable'
          : fieldOf(err, 'killed') === true
            ? `did not answer within ${TIMEOUT_MS / 1000} s`
            : `does not run (${(typeof stderr === 'string' ? stderr : errorMessage(err)).trim().split('\n').pop()})`;
    return { ...c, reason };
  }
}
