import { context, isSpanContextValid, ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { startRequestSpan } from '../../src/tracing/head-sampling';
import { tracer } from '../../src/tracing/span-helpers';
import { installTracing, type InstalledTracing } from '../../src/tracing/install-tracing';
import type { TraceSampling } from '../../src/tracing/trace-settings';

/**
 * A request span sampled before the SDK makes it (head-sampling.ts): the configured sampler's
 * decision — parent-based on the caller's flag, the ratio for new traces — with a dropped span
 * costing no SDK span, and what is made beneath it following it.
 */
// A new exporter each time: shutting the SDK down shuts its exporter for good.
let exporter = new InMemorySpanExporter();
let tracing: InstalledTracing | undefined;
const install = (sampling: TraceSampling) => {
  exporter = new InMemorySpanExporter();
  tracing = installTracing({ serviceName: 'head-test', processors: [new SimpleSpanProcessor({ exporter })], sampling });
};
afterEach(async () => {
  await tracing?.shutdown();
  tracing = undefined;
});

const caller = (sampled: boolean) =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });

/** A request span with a child made inside its context, both ended; what was exported. */
function request(parent = ROOT_CONTEXT) {
  let attributesBuilt = 0;
  const span = startRequestSpan(
    'GET /f/:id',
    SpanKind.SERVER,
    () => {
      attributesBuilt++;
      return { 'url.path': '/f/x' };
    },
    parent,
  );
  const child = context.with(trace.setSpan(parent, span), () => tracer().startSpan('blob read'));
  // Whether they record, asked before they end (an ended span records nothing more).
  const recording = span.isRecording();
  const childRecording = child.isRecording();
  child.end();
  span.end();
  return { span, child, recording, childRecording, attributesBuilt };
}

test('no SDK installed: the API’s no-op span, attributes never built', () => {
  const { span, recording, attributesBuilt } = request();
  expect(recording).toBe(false);
  expect(isSpanContextValid(span.spanContext())).toBe(false);
  expect(attributesBuilt).toBe(0);
});

test('every trace kept: the span records with its attributes, its child beneath it', () => {
  install({ ratio: 1, parentBased: true });
  const { recording, attributesBuilt } = request();
  expect(recording).toBe(true);
  expect(attributesBuilt).toBe(1);
  const [child, server] = exporter.getFinishedSpans();
  expect(server).toMatchObject({ name: 'GET /f/:id', kind: SpanKind.SERVER, attributes: { 'url.path': '/f/x' } });
  expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
  expect(server.parentSpanContext).toBeUndefined();
});

test('a new trace dropped (ratio 0): a non-recording span with fresh valid ids; its child records nothing', () => {
  install({ ratio: 0, parentBased: true });
  const a = request();
  const b = request();
  expect(a.recording).toBe(false);
  expect(a.attributesBuilt).toBe(0);
  const ids = a.span.spanContext();
  expect(isSpanContextValid(ids)).toBe(true);
  expect(ids.traceFlags).toBe(TraceFlags.NONE);
  expect(ids.traceId).not.toBe(b.span.spanContext().traceId);
  // The child shares the request's trace (its log lines name it), and is dropped with it.
  expect(a.child.spanContext().traceId).toBe(ids.traceId);
  expect(a.childRecording).toBe(false);
  expect(exporter.getFinishedSpans()).toEqual([]);
});

test('parent-based: a sampled caller is followed even at ratio 0; an unsampled one is not at ratio 1', async () => {
  install({ ratio: 0, parentBased: true });
  const kept = request(caller(true));
  expect(kept.recording).toBe(true);
  const [, server] = exporter.getFinishedSpans();
  expect(server.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  expect(server.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  await tracing?.shutdown();
  install({ ratio: 1, parentBased: true });
  const dropped = request(caller(false));
  expect(dropped.recording).toBe(false);
  expect(dropped.span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  expect(dropped.span.spanContext().spanId).not.toBe('00f067aa0ba902b7');
  expect(exporter.getFinishedSpans()).toEqual([]);
});

test('a ratio keeps about that share of new traces, and only those reach the exporter', () => {
  install({ ratio: 0.25, parentBased: true });
  const n = 4000;
  let recording = 0;
  for (let i = 0; i < n; i++) if (request().recording) recording++;
  // Binomial(4000, 0.25): sd 27; the bounds are over 7 sd away.
  expect(recording).toBeGreaterThan(800);
  expect(recording).toBeLessThan(1200);
  expect(exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER)).toHaveLength(recording);
});
