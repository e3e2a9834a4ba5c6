import { quietly, type Logger, type Stoppable } from '@patchbay/platform';
import { msToNextWindow, windowOf } from './domain/windows';

/**
 * Calls `tick(window)` once at start and then at the start of every window (multiples of
 * `intervalMs` since the epoch), so replicas tick together and their keyed jobs de-duplicate.
 * A tick still running when the next one is due is not overlapped: that window is skipped.
 */
export function startTicker(intervalMs: number, tick: (window: number) => Promise<void>, log: Logger): Stoppable {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const fire = (window: number) => {
    if (running) {
      log.warn({ window }, 'previous tick still running; window skipped');
      return;
    }
    // Quiet: the look for containers to sweep makes no trace; the jobs it enqueues start their own.
    running = quietly(() => tick(window))
      .catch((err: unknown) => log.warn({ err, window }, 'tick failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const schedule = () => {
    if (stopped) return;
    const now = Date.now();
    const window = windowOf(now, intervalMs) + 1;
    timer = setTimeout(
      () => {
        fire(window);
        schedule();
      },
      msToNextWindow(now, intervalMs),
    );
    timer.unref();
  };
  fire(windowOf(Date.now(), intervalMs));
  schedule();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
