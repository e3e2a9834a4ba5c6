/**
 * The rules of login throttling, as pure functions of a counter's state and the clock.
 *
 * A counter tracks failed password checks for one key — a login, or a client address. Failures
 * inside `windowMs` add up; once `maxFailures` are reached the key is locked for `lockMs`, doubled
 * for each lock that follows within a window of the previous one (at most `maxLockMs`), and the
 * count starts again. While locked every attempt is refused, the right password too: that is what
 * stops guessing. A lock always ends, and a successful login clears its login's counter, so the
 * right password is never locked out for good. Before the lock, each further failure of a login is
 * answered a little later (`slowMs`, doubling): a guesser is slowed, a person who mistyped is not.
 */
export interface ThrottlePolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
  maxLockMs: number;
  /** Delay of the second consecutive failure; doubles per failure after it; 0: never slowed. */
  slowMs: number;
  maxSlowMs: number;
}

export interface AttemptState {
  failures: number;
  /** When the failures being counted began (null: none). */
  window_start: Date | null;
  locked_until: Date | null;
  /** Locks so far in a row; the next lock lasts lockMs × 2^locks. */
  locks: number;
}

export const NO_ATTEMPTS: Readonly<AttemptState> = Object.freeze({
  failures: 0,
  window_start: null,
  locked_until: null,
  locks: 0,
});

/** Milliseconds the key stays locked from `now` (0: not locked). */
export function lockRemainingMs(state: AttemptState, now: Date): number {
  return state.locked_until ? Math.max(0, state.locked_until.getTime() - now.getTime()) : 0;
}

/** The state after one more failed password check at `now`. */
export function afterFailure(state: AttemptState, now: Date, policy: ThrottlePolicy): AttemptState {
  const t = now.getTime();
  const fresh = !state.window_start || t - state.window_start.getTime() > policy.windowMs;
  // A lock long over (a whole window since it ended) no longer makes the next one longer.
  const locks = state.locked_until && t - state.locked_until.getTime() > policy.windowMs ? 0 : state.locks;
  const failures = (fresh ? 0 : state.failures) + 1;
  const windowStart = fresh ? now : state.window_start;
  if (failures < policy.maxFailures)
    return { failures, window_start: windowStart, locked_until: state.locked_until, locks };
  const lockMs = Math.min(policy.lockMs * 2 ** locks, policy.maxLockMs);
  return { failures: 0, window_start: null, locked_until: new Date(t + lockMs), locks: locks + 1 };
}

/** How long to hold the answer to a failure that left `state` (slowing, before any lock). */
export function failureDelayMs(state: AttemptState, policy: ThrottlePolicy): number {
  if (policy.slowMs <= 0 || state.failures < 2) return 0;
  return Math.min(policy.slowMs * 2 ** (state.failures - 2), policy.maxSlowMs);
}

/** Whole seconds for a Retry-After header (at least 1). */
export function retryAfterSeconds(remainingMs: number): number {
  return Math.max(1, Math.ceil(remainingMs / 1000));
}
