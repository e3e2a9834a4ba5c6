import { claimWorkerDir, makePrivateDir, sweepScratch, type Logger } from '@patchbay/platform';
import { parentDeathSignal } from '../ffmpeg/child-guard';

/** How often a running worker looks for dead workers' leftovers (replicas die while others run on). */
export const SWEEP_INTERVAL_MS = 60_000;

export interface Scratch {
  /** This worker's scratch directory. */
  dir: string;
  /** Stops the periodic sweep and removes this worker's directory; call once no job runs any more. */
  stop(): Promise<void>;
}

/**
 * This worker's place in the shared scratch root, and the clean-up of what dead workers left: once
 * before the first job (after a crash of the whole process, its own previous life is the dead
 * worker) and every minute after. A sweep failure is logged and never stops the service.
 */
export async function startScratch(root: string, log: Logger, runTimeoutMs: number): Promise<Scratch> {
  // Private like the data directory: an encrypted upload's plaintext passes through (decisions §51).
  makePrivateDir(root, log);
  const mine = await claimWorkerDir(root);
  // An old-layout job may have run for its full time limit; give it that twice over before its files go.
  const sweep = () =>
    sweepScratch(root, log, { own: mine.dir, legacyMs: 2 * runTimeoutMs }).catch((err: unknown) => {
      log.error({ err, root }, 'scratch sweep failed');
    });
  await sweep();
  const timer = setInterval(() => {
    void sweep();
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  if (!parentDeathSignal())
    log.warn(
      'setpriv --pdeathsig is not available here: an ffmpeg whose worker is ' +
        'killed runs on until the next scratch sweep kills it',
    );
  return {
    dir: mine.dir,
    stop: async () => {
      clearInterval(timer);
      await mine.release();
    },
  };
}
