import type { TranscodeRequest } from '@patchbay/contracts';
import type { JobDeps } from './convert';
import type { LiveRuns } from './live/live-runs';
import type { Toolkit } from './ffmpeg/toolkit';
import type { RunKind } from './metrics';

/** What every transcoder operation works with (built once by service.ts). */
export interface TranscoderContext {
  /** The ffmpeg and ffprobe found (or not): what this replica can do. */
  toolkit: Toolkit;
  /** Upload-time work: the bus, the blobs, the log, its own slots, the scratch directory, the run timeout. */
  jobs: JobDeps;
  /** A download-time copy (download-copies.ts): coalesced, on slots of its own; resolves to its size. */
  copy: (req: TranscodeRequest) => Promise<number>;
  /** Download-time copies sent as they are made (live/live-runs.ts). */
  live: LiveRuns;
  /** Runs `work` timed and counted under its kind (metrics.ts). */
  measured: <T>(kind: RunKind, work: () => Promise<T>) => Promise<T>;
  /** Aborted when a stop has waited the drain deadline (service.ts). */
  stopping: AbortSignal;
}
