import crypto from 'node:crypto';
import {
  createContextKey,
  isSpanContextValid,
  SamplingDecision,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type SpanKind,
} from '@opentelemetry/api';
import type { Sampler, SamplingResult } from '@opentelemetry/sdk-trace';
import { tracer } from './span-helpers';
import type { TraceSampling } from './trace-settings';

/**
 * The sampling decision of a hot path's request span, made before the SDK is asked for a span
 * (decisions §45). A span the sampler drops still cost the SDK's whole start — ids, attribute
 * sanitizing, the sampler, its own metrics — about 2.4 µs in a loop and several times that inside
 * a busy server, on every request of a file server sampling 1 % of its traces. Here a dropped
 * request span is the API's non-recording span around fresh ids (about 0.3 µs, attributes never
 * built), and only a kept one goes to the SDK, marked so its sampler keeps it (HeadDecidedSampler):
 * the decision is made once, with the configured sampler's rules.
 */

/** The sampling of the installed SDK; undefined while none is (every span is then the API's no-op). */
let installed: TraceSampling | undefined;

export function setHeadSampling(sampling: TraceSampling | undefined): void {
  installed = sampling;
}

/** Whether an SDK is installed: without one a span is the API's no-op and a context goes nowhere. */
export function tracingInstalled(): boolean {
  return installed !== undefined;
}

/** Marks the context of a span this module decided to keep: HeadDecidedSampler records it. */
const KEEP = createContextKey('patchbay.head-sampling.keep');

/** The installed sampler, told to keep what startRequestSpan already decided to keep. */
export class HeadDecidedSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(...args: Parameters<Sampler['shouldSample']>): SamplingResult {
    if (args[0].getValue(KEEP) === true) return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    return this.inner.shouldSample(...args);
  }

  toString(): string {
    return `HeadDecided{${this.inner.toString()}}`;
  }
}

/** Random ids from a pooled buffer (one randomFillSync per 1,024 spans), never all zeros. */
const pool = Buffer.alloc(24 * 1024);
let used = pool.length;
export function randomHex(bytes: number): string {
  for (;;) {
    if (used + bytes > pool.length) {
      crypto.randomFillSync(pool);
      used = 0;
    }
    const hex = pool.toString('hex', used, used + bytes);
    used += bytes;
    if (!/^0+$/.test(hex)) return hex;
  }
}

/**
 * A SERVER (or other) span for one request, child of `parent` (the caller's extracted context),
 * or the root of a new trace. Parent-based sampling follows the caller's flag; a new trace is kept
 * with the configured ratio. `attributes` is called only for a span that records.
 */
export function startRequestSpan(name: string, kind: SpanKind, attributes: () => Attributes, parent: Context): Span {
  const sampling = installed;
  if (!sampling) return tracer().startSpan(name, { kind }, parent);
  const caller = trace.getSpanContext(parent);
  const hasCaller = caller !== undefined && isSpanContextValid(caller);
  // Without parent-based sampling a caller's trace is sampled by its id: the SDK's own rules decide.
  if (hasCaller && !sampling.parentBased) return tracer().startSpan(name, { kind, attributes: attributes() }, parent);
  const keep = hasCaller ? (caller.traceFlags & TraceFlags.SAMPLED) !== 0 : Math.random() < sampling.ratio;
  if (keep) return tracer().startSpan(name, { kind, attributes: attributes() }, parent.setValue(KEEP, true));
  return trace.wrapSpanContext({
    traceId: hasCaller ? caller.traceId : randomHex(16),
    spanId: randomHex(8),
    traceFlags: TraceFlags.NONE,
    ...(hasCaller && caller.traceState ? { traceState: caller.traceState } : {}),
  });
}
