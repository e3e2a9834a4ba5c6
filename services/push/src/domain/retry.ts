import type { PushResult } from '@patchbay/contracts';
import type { AttemptOutcome } from './outcome';

export interface RetryPolicy {
  maxRetries: number;
  /** First delay (ms); doubles per retry. */
  baseMs: number;
  /** Longest single delay (ms). */
  maxDelayMs?: number;
}

/** Delay before retry `n` (1-based): exponential, capped, with "equal jitter" (half fixed, half random). */
export function backoffDelay(policy: RetryPolicy, n: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs ?? 5000, policy.baseMs * 2 ** (n - 1));
  return Math.round(cap / 2 + random() * (cap / 2));
}

export interface RetryOptions {
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Called before each retry with the devices retried and why (for logs). */
  onRetry?: (n: number, deviceSids: string[], detail: string) => void;
  /** Called once with the devices that end as `provider_error` and the first reason (for logs). */
  onProviderError?: (deviceSids: string[], detail: string) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * Delivers to `targets` by calling `attempt` with the devices still pending, and retries those
 * whose outcome is transient after a backoff, or after the provider's `Retry-After` when that is
 * longer — until none is pending, the retries run out, or waiting would pass `deadline` (epoch
 * ms). A device that is still transient at the end, or that the attempt did not answer for, is
 * `provider_error`.
 */
export async function deliverWithRetries<T extends { device_sid: string }>(
  targets: T[],
  attempt: (pending: T[]) => Promise<Map<string, AttemptOutcome>>,
  policy: RetryPolicy,
  deadline: number,
  opts: RetryOptions = {},
): Promise<Map<string, PushResult>> {
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  const results = new Map<string, PushResult>();
  const failed: string[] = [];
  let failure = '';
  let pending = targets;
  for (let n = 0; pending.length > 0; n++) {
    const outcomes = await attempt(pending);
    const retry: T[] = [];
    let detail = '';
    let retryAfter = 0;
    for (const t of pending) {
      const o = outcomes.get(t.device_sid);
      if (o && !o.retry) {
        results.set(t.device_sid, o.result);
        if (o.result === 'provider_error') {
          failed.push(t.device_sid);
          failure ||= o.detail ?? 'provider error';
        }
      } else {
        retry.push(t);
        detail ||= o?.detail ?? 'no answer';
        if (o?.retry && o.afterMs !== undefined) retryAfter = Math.max(retryAfter, o.afterMs);
      }
    }
    if (retry.length === 0) break;
    const delay = Math.max(backoffDelay(policy, n + 1, opts.random), retryAfter);
    if (n >= policy.maxRetries || now() + delay >= deadline) {
      for (const t of retry) {
        results.set(t.device_sid, 'provider_error');
        failed.push(t.device_sid);
      }
      failure ||= `${detail} (gave up after ${n + 1} attempt${n === 0 ? '' : 's'})`;
      break;
    }
    opts.onRetry?.(
      n + 1,
      retry.map((t) => t.device_sid),
      detail,
    );
    await sleep(delay);
    pending = retry;
  }
  if (failed.length > 0) opts.onProviderError?.(failed, failure);
  return results;
}

/** Resolves with `promise`, or with `fallback()` once `ms` pass (the promise is left to settle). */
export function withTimeout<T>(promise: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback()), Math.max(0, ms));
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
