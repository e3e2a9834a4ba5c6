import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { headers, type Msg, type MsgHdrs } from 'nats';
import { REQUEST_ID_HEADER } from './envelope-codec';
import { CHUNKED_HEADER, STORED_HEADER } from './large-messages';
import { WATCH_HEADER } from './nats-request-watch';
import type { TraceCarrier } from './port';

/** The W3C trace context headers a message may carry (port.ts, TraceCarrier). */
export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

/** The headers a bus message carries (none: undefined, so a plain message stays header-free). */
export function busHeaders(h: {
  requestId?: string;
  chunked?: string;
  stored?: string;
  /** WATCH_HEADER of a request (nats-request-watch.ts). */
  watch?: string;
  traceContext?: TraceCarrier;
}): MsgHdrs | undefined {
  const trace = TRACE_HEADERS.filter((name) => h.traceContext?.[name]);
  if (!h.requestId && !h.chunked && !h.stored && !h.watch && trace.length === 0) return undefined;
  const out = headers();
  if (h.requestId) out.set(REQUEST_ID_HEADER, h.requestId);
  if (h.chunked) out.set(CHUNKED_HEADER, h.chunked);
  if (h.stored) out.set(STORED_HEADER, h.stored);
  if (h.watch) out.set(WATCH_HEADER, h.watch);
  for (const name of trace) out.set(name, h.traceContext![name]);
  return out;
}

/** A received message's trace context headers, undefined when it has none. */
export function traceOf(msg: Pick<Msg, 'headers'>): TraceCarrier | undefined {
  let found: TraceCarrier | undefined;
  for (const name of TRACE_HEADERS) {
    const value = headerOf(msg, name);
    if (value) (found ??= {})[name] = value;
  }
  return found;
}

/** A header's value, undefined when absent or empty (nats.js answers '' for a missing one). */
export function headerOf(msg: Pick<Msg, 'headers'>, name: string): string | undefined {
  return msg.headers?.get(name) || undefined;
}

/**
 * The object name of a large event's or job's body: derived from the message ID when there is one,
 * so a publish retried with the same ID writes the same object rather than an orphan.
 */
export function bodyName(subject: string, msgId: string | undefined): string {
  if (!msgId) return randomUUID();
  return createHash('sha256').update(`${subject}\n${msgId}`).digest('hex').slice(0, 32);
}

export function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    /* already closed: nothing left to undo */
  }
}

/** Rejects if `p` takes longer than `ms`. */
export async function withLimit<T>(p: Promise<T>, ms: number): Promise<T> {
  const ac = new AbortController();
  try {
    return await Promise.race([
      p,
      sleep(ms, undefined, { signal: ac.signal }).then(() => {
        throw new Error(`gave up after ${ms} ms`);
      }),
    ]);
  } finally {
    ac.abort();
  }
}
