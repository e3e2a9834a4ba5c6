/**
 * The tests' one polling loop, in three forms: `until` (a value), `untilTrue` (a condition) and
 * `eventually` (assertions that pass). Each polls instead of sleeping a fixed time, and fails
 * naming what it waited for (or with the last assertion's own failure) at its deadline.
 *
 * Two waits are fixed by nature, and say so by their names: `consistently` (assertions that must
 * keep passing for a whole period: "nothing more comes") and `pause` (time that must pass: a lease
 * or lock running out, a client's pace, a handler's simulated work). Anything else is awaited.
 */

/**
 * Polls `check` until it returns something other than undefined, and returns that; fails naming
 * `what` after `timeoutMs` (followed by `detail()`, such as a process's output, when given). With
 * `ignoreErrors`, a check that throws counts as "not yet" (for polling across a restart).
 */
export async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined> | T | undefined,
  opts: { ignoreErrors?: boolean; everyMs?: number; detail?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = opts.ignoreErrors
      ? await Promise.resolve()
          .then(check)
          .catch(() => undefined)
      : await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const detail = opts.detail ? `:\n${opts.detail()}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await pause(opts.everyMs ?? 100);
  }
}

/** Polls `check` until it is true (every 25 ms unless told); fails after `timeoutMs` naming `what`. */
export async function untilTrue(
  check: () => boolean | Promise<boolean>,
  opts: { what?: string; timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  await until(opts.what ?? 'a condition', opts.timeoutMs ?? 10_000, async () => ((await check()) ? true : undefined), {
    everyMs: opts.everyMs ?? 25,
  });
}

/** Runs `check` (assertions) until it passes; at `timeoutMs` fails with its last failure. */
export async function eventually(check: () => unknown, timeoutMs = 5_000, everyMs = 25): Promise<void> {
  let last: unknown;
  const passes = async () => {
    try {
      await check();
      return true;
    } catch (err) {
      last = err;
      return undefined;
    }
  };
  try {
    await until('a check to pass', timeoutMs, passes, { everyMs });
  } catch (timedOut) {
    throw last ?? timedOut;
  }
}

/**
 * Runs `check` (assertions) every `everyMs` for `forMs`, failing at once with its failure if it
 * ever fails: for what must NOT happen within a period (a second delivery, a late callback). The
 * period is the assertion, so it is a fixed wait.
 */
export async function consistently(check: () => unknown, forMs: number, everyMs = 25): Promise<void> {
  const end = Date.now() + forMs;
  for (;;) {
    await check();
    const left = end - Date.now();
    if (left <= 0) return;
    await pause(Math.min(everyMs, left));
  }
}

/** Lets `ms` pass: for time that is itself what a test needs (see the note atop), never for a condition. */
export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
