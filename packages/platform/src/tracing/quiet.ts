import {
  context,
  createTraceState,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { randomHex, tracingInstalled } from './head-sampling';
import { inSpan, QUIET } from './span-helpers';

/**
 * Background loops and timers (a poll every 500 ms, a sweep every minute) look for work far more
 * often than they find it. Traced like a request, each look is a root trace of a store query or a
 * bus request: an idle replica exported one every 500 ms (issue 44). So a loop looks `quietly` and
 * traces only the work it finds, each piece as a root span of its own (`backgroundWork`).
 *
 * Quiet is a context: Patchbay's own spans (store calls, bus sends) make no span in it, and what
 * the SDK's instrumentations would make there (MongoDB, outgoing HTTP) is the child of a span
 * context that is not sampled, so a parent-based sampler (the default) drops it too. A bus request
 * sent quietly carries that unsampled context with the `patchbay=quiet` trace state, and its
 * receiver handles it quietly as well; an event or a job published from a quiet look is work: it
 * carries no context, and starts a trace of its own where it is processed.
 */
const QUIET_STATE = 'quiet';

/** `parent`'s values plus the quiet marker and an unsampled span context (fresh ids unless given). */
export function quietContext(parent: Context = ROOT_CONTEXT, ids?: { traceId: string; spanId: string }): Context {
  return trace.setSpanContext(parent.setValue(QUIET, true), {
    traceId: ids?.traceId ?? randomHex(16),
    spanId: ids?.spanId ?? randomHex(8),
    traceFlags: TraceFlags.NONE,
    traceState: createTraceState(`patchbay=${QUIET_STATE}`),
  });
}

/** Whether a context extracted from a message is a quiet sender's (its trace state says so). */
export function carriedQuiet(extracted: Context): boolean {
  return trace.getSpanContext(extracted)?.traceState?.get('patchbay') === QUIET_STATE;
}

/** Runs a background loop's look for work without making spans (nothing at all while tracing is off). */
export function quietly<T>(look: () => Promise<T>): Promise<T> {
  if (!tracingInstalled()) return look();
  return context.with(quietContext(), look);
}

/**
 * Work a background loop found, traced as the root span of a trace of its own — never a child of
 * the quiet look that found it, nor of whatever context the timer was created in.
 */
export function backgroundWork<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return context.with(ROOT_CONTEXT, () => inSpan(name, { attributes }, work));
}
