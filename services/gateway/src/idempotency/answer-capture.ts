import type { Response } from 'express';

/** An answer as the route sent it: status, the headers worth replaying, the body bytes (unless too large). */
export interface SentAnswer {
  status: number;
  headers: Record<string, string>;
  /** Null when the body was larger than the limit, or was written in pieces (a streamed answer). */
  body: Buffer | null;
}

/** The response headers an answer is replayed with (Connection, dates, request IDs are the new response's own). */
const KEPT_HEADERS = ['content-type', 'location', 'retry-after'];

/**
 * Holds the route's answer back until `settle` (keep it, or let the key go) is done with it, then
 * sends it as it was: a client that has the answer can count on a repeat replaying it. Routes answer
 * writes with one `res.end` (express's `res.send`); a body written in pieces is passed on as it
 * comes and marked not kept. `settle` must not reject.
 */
export function holdAnswer(res: Response, limitBytes: number, settle: (answer: SentAnswer) => Promise<void>): void {
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  let pieces = false;
  res.write = ((...args: Parameters<typeof res.write>) => {
    pieces = true;
    return write(...args);
  }) as typeof res.write; // why: one wrapper stands for write's overloads, passing its arguments on as they are
  let held = false;
  res.end = ((...args: Parameters<typeof end>) => {
    if (held) return end(...args);
    held = true;
    const chunk: unknown = typeof args[0] === 'function' ? undefined : args[0];
    // Typed by end's last overload; a call by another one may hold a callback here.
    const encoding = typeof args[1] === 'string' ? args[1] : 'utf8';
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk instanceof Uint8Array ? chunk : null;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = pieces || (bytes?.length ?? 0) > limitBytes ? null : Buffer.from(bytes ?? []);
    void settle({ status: res.statusCode, headers, body }).finally(() => end(...args));
    return res;
  }) as typeof res.end; // why: as for write: end's overloads (chunk, encoding, callback) pass through unchanged
}
