import {
  context,
  createContextKey,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

export { SpanKind };

/** Set on the context of a background loop looking for work (quiet.ts): no span of ours is made in it. */
export const QUIET = createContextKey('patchbay.tracing.quiet');

/** Whether `ctx` is a background loop's quiet look for work (see quiet.ts). */
export function isQuiet(ctx: Context = context.active()): boolean {
  return ctx.getValue(QUIET) === true;
}

/**
 * Patchbay's own spans, through the OpenTelemetry API only: without an SDK started
 * (start-tracing.ts) every call here is the API's no-op, so code can make spans unconditionally.
 */
export function tracer(): Tracer {
  return trace.getTracer('patchbay');
}

/**
 * Runs `work` inside a new span, child of the active one: the span ends when `work` settles, and
 * a rejection is recorded on it (status ERROR) and rethrown. In a background loop's quiet look for
 * work (quiet.ts) no span is made: `work` gets the quiet context's span, which records nothing.
 */
export function inSpan<T>(
  name: string,
  opts: { kind?: SpanKind; attributes?: Attributes },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (isQuiet()) return work(trace.getActiveSpan() ?? trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return tracer().startActiveSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, (span) =>
    work(span).then(
      (result) => {
        span.end();
        return result;
      },
      (err: unknown) => {
        failSpan(span, err);
        span.end();
        throw err;
      },
    ),
  );
}

/** Marks a span failed with `err` (its type and message, never more). */
export function failSpan(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  if (err instanceof Error) span.recordException(err);
}

/** `{trace_id, span_id}` of the active span, for log lines; empty when none is active. */
export function activeTraceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (!span || isQuiet()) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
