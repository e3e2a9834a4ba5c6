/**
 * One logical write of the chaos workload, sent until it is acknowledged: the same Idempotency-Key
 * on every attempt, so a retry after a lost answer (a reset, a timeout, a 5xx, a 409 while the first
 * attempt still runs) can only be answered with the first attempt's result. What every attempt saw is
 * kept, so the report can say how many writes needed retries and how many answers were replays.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Attempt {
  /** HTTP status, or 0 when no answer came (reset, refused, timed out). */
  status: number;
  replayed: boolean;
  error?: string;
}

export interface WriteResult<T> {
  /** The 2xx answer's body, when one came before the deadline. */
  body?: T;
  status?: number;
  /** The refusing answer's body (its first 500 characters), so the report can say why. */
  refusal?: string;
  attempts: Attempt[];
}

export interface SendOptions {
  method: 'POST' | 'PATCH' | 'DELETE';
  url: string;
  token: string;
  key: string;
  body: Buffer | string;
  contentType: string;
  /** Give up after this moment (epoch ms): the write then counts as unacknowledged. */
  until: number;
  /** One attempt's limit; a client's own timeout, what turns a slow answer into a lost one. */
  attemptTimeoutMs?: number;
}

/** Statuses after which the same request may pass: the server did not (yet) settle it. */
const retryable = (status: number) => status === 0 || status === 409 || status === 429 || status >= 500;

export async function sendUntilAcknowledged<T>(opts: SendOptions): Promise<WriteResult<T>> {
  const attempts: Attempt[] = [];
  let backoff = 250;
  while (Date.now() < opts.until) {
    let attempt: Attempt;
    try {
      const res = await fetch(opts.url, {
        method: opts.method,
        headers: {
          authorization: `Bearer ${opts.token}`,
          'content-type': opts.contentType,
          'idempotency-key': opts.key,
        },
        body: opts.body,
        signal: AbortSignal.timeout(opts.attemptTimeoutMs ?? 15_000),
      });
      const text = await res.text();
      attempt = { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true' };
      attempts.push(attempt);
      if (res.status < 300)
        return {
          body: (text ? JSON.parse(text) : undefined) as T /* the API's documented answer for this route */,
          status: res.status,
          attempts,
        };
      if (!retryable(res.status)) return { status: res.status, refusal: text.slice(0, 500), attempts };
      const after = Number(res.headers.get('retry-after'));
      if (after > 0) backoff = Math.max(backoff, after * 1000);
    } catch (err) {
      attempts.push({ status: 0, replayed: false, error: err instanceof Error ? err.name : String(err) });
    }
    await sleep(Math.min(backoff, Math.max(0, opts.until - Date.now())));
    backoff = Math.min(backoff * 2, 5_000);
  }
  return { attempts };
}
