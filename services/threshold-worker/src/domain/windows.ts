/**
 * Tick windows. Time is cut into windows of the sweep interval counted from the epoch, so every
 * replica computes the same window number at the same moment without talking to the others; job
 * message IDs carry it, and the bus drops the copies other replicas enqueue in the same window.
 */

/** The window `nowMs` falls in. */
export function windowOf(nowMs: number, intervalMs: number): number {
  return Math.floor(nowMs / intervalMs);
}

/** Milliseconds from `nowMs` to the start of the next window. */
export function msToNextWindow(nowMs: number, intervalMs: number): number {
  return intervalMs - (nowMs % intervalMs);
}

/** One delete_lru sweep job per container per window. */
export function sweepJobId(containerSid: string, window: number): string {
  return `sweep:${containerSid}:${window}`;
}

/** One lifecycle expiry job per window. */
export function expireJobId(window: number): string {
  return `expire:${window}`;
}

/** One usage snapshot job per window. */
export function usageJobId(window: number): string {
  return `usage:${window}`;
}

/** The UTC day (`YYYY-MM-DD`) a window starts on: the day its usage snapshots are of. */
export function usageDateOf(window: number, intervalMs: number): string {
  return new Date(window * intervalMs).toISOString().slice(0, 10);
}
