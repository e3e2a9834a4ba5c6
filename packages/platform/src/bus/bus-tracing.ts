import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { TraceCarrier } from './port';
import { failSpan, isQuiet, tracer } from '../tracing/span-helpers';
import { carriedQuiet, quietContext } from '../tracing/quiet';

/** What a span on the bus stands for: `request`, `event`, `job` or `listen` (the message family). */
export type BusKind = 'request' | 'event' | 'job' | 'listen';

const attributes = (subject: string, kind: BusKind, operation: 'send' | 'process') => ({
  'messaging.destination.name': subject,
  'messaging.operation.type': operation,
  'patchbay.bus.kind': kind,
});

/** A reply's status on its span; 5xx marks the span failed (a 4xx is the caller's mistake, not ours). */
export function replyStatus(span: Span, status: number): void {
  span.setAttribute('patchbay.bus.status', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `status ${status}` });
}

/**
 * The sending side (decisions §42): a client span for a request, a producer span for an event or a
 * job, child of the active span; `send` gets the W3C trace context of that span to put on the
 * message (undefined when tracing is off: nothing is added).
 */
export async function tracedSend<T>(
  kind: Exclude<BusKind, 'listen'>,
  subject: string,
  send: (traceContext: TraceCarrier | undefined) => Promise<T>,
  onResult?: (span: Span, result: T) => void,
): Promise<T> {
  if (isQuiet()) {
    // A background loop looking for work (quiet.ts): a request carries the quiet, unsampled
    // context so its receiver stays quiet too; an event or job is work, and starts its own trace.
    if (kind !== 'request') return send(undefined);
    const carrier: TraceCarrier = {};
    propagation.inject(context.active(), carrier);
    return send(Object.keys(carrier).length > 0 ? carrier : undefined);
  }
  const span = tracer().startSpan(`${kind === 'request' ? 'request' : 'publish'} ${subject}`, {
    kind: kind === 'request' ? SpanKind.CLIENT : SpanKind.PRODUCER,
    attributes: attributes(subject, kind, 'send'),
  });
  const active = trace.setSpan(context.active(), span);
  const carrier: TraceCarrier = {};
  propagation.inject(active, carrier);
  try {
    const result = await context.with(active, () => send(Object.keys(carrier).length > 0 ? carrier : undefined));
    onResult?.(span, result);
    return result;
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * The receiving side: a server span for a request, a consumer span for an event, job or listened
 * message, child of the sender's span named by `traceContext` — and the root of a new trace when
 * the message carries none, whatever the context of the code that delivered it (the in-process bus
 * delivers in its sender's async context; that must not make the two one trace by accident).
 * `handle` runs with the span active, so its log lines and its own bus calls belong to it.
 */
export function tracedReceive<T>(
  kind: BusKind,
  subject: string,
  traceContext: TraceCarrier | undefined,
  handle: () => Promise<T>,
  onResult?: (span: Span, result: T) => void,
): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, traceContext ?? {});
  const sender = trace.getSpanContext(parent);
  // A quiet sender's request (quiet.ts) is handled quietly: no span here, none below it.
  if (sender && carriedQuiet(parent)) return context.with(quietContext(ROOT_CONTEXT, sender), handle);
  const span = tracer().startSpan(
    `${kind === 'request' ? 'serve' : 'process'} ${subject}`,
    {
      kind: kind === 'request' ? SpanKind.SERVER : SpanKind.CONSUMER,
      attributes: attributes(subject, kind, 'process'),
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      const result = await handle();
      onResult?.(span, result);
      return result;
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}
