import type { CallResult } from './data';

/** The request header the API reads a write's idempotency key from (docs/interface-notes.md, Idempotency keys). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** How an idempotent write is sent: its key, and how often it is sent again after a failure that may pass. */
export interface IdempotentOptions {
  /** The write's key (1–255 printable ASCII); default a new random UUID, the same for every attempt. */
  idempotencyKey?: string;
  /** Attempts after the first (default 2): after a network failure, a 502/503/504, or a 409 while it still runs. */
  retries?: number;
  /** Longest wait between attempts (ms; default 30 s): `Retry-After` when the API gives one, else 1 s, 2 s, … */
  maxDelayMs?: number;
}

/** A new key: a random UUID (crypto.randomUUID, in browsers and Node alike). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Whether an answer may be different if the write is sent again with its key: it did not run, or still runs. */
function passing(status: number, error: unknown): boolean {
  if (status === 502 || status === 503 || status === 504) return true;
  if (status !== 409 || typeof error !== 'object' || error === null || !('errors' in error)) return false;
  const errors = error.errors;
  return Array.isArray(errors) && errors.some((e: unknown) => isKeyError(e));
}

const isKeyError = (e: unknown) =>
  typeof e === 'object' && e !== null && 'field' in e && e.field === IDEMPOTENCY_KEY_HEADER;

/**
 * Sends a write with an `Idempotency-Key` header, and again with the same key after a failure that
 * may pass — the API runs it once and answers a repeat with the first answer (`Idempotent-Replayed:
 * true`), so a retry after a lost answer never does the work twice. `send` makes one attempt with
 * the headers given (call it again for each attempt: a body stream is read once, so give it anew);
 * the result is the last attempt's. Without `retries`, one attempt with the key.
 *
 *   const r = await idempotent((headers) => pb.api.POST('/endpoints', { body, headers }), { idempotencyKey });
 */
export async function idempotent<T>(
  send: (headers: Record<string, string>) => Promise<CallResult<T>>,
  opts: IdempotentOptions = {},
): Promise<CallResult<T>> {
  const headers = { [IDEMPOTENCY_KEY_HEADER]: opts.idempotencyKey ?? newIdempotencyKey() };
  const retries = Math.max(0, opts.retries ?? 2);
  const maxDelay = opts.maxDelayMs ?? 30_000;
  for (let attempt = 0; ; attempt++) {
    let result: CallResult<T>;
    try {
      result = await send(headers);
    } catch (err) {
      // A network failure: the write may or may not have run; its key makes sending it again safe.
      if (attempt >= retries) throw err;
      await sleep(Math.min(maxDelay, 1000 * (attempt + 1)));
      continue;
    }
    if (attempt >= retries || !passing(result.response.status, result.error)) return result;
    const retryAfter = Number(result.response.headers.get('retry-after'));
    const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000 * (attempt + 1);
    await sleep(Math.min(maxDelay, wait));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
