/**
 * Polls `check` until it returns something other than undefined, and returns that; fails naming
 * `what` after `timeoutMs`. With `ignoreErrors`, a check that throws counts as "not yet" (for
 * polling across a restart).
 */
export async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined> | T | undefined,
  opts: { ignoreErrors?: boolean; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = opts.ignoreErrors
      ? await Promise.resolve()
          .then(check)
          .catch(() => undefined)
      : await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 100));
  }
}
