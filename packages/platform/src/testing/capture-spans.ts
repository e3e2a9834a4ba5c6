import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { installTracing } from '../tracing/install-tracing';

/**
 * The OpenTelemetry SDK for a test file, spans kept in memory (no instrumentations): for "this made
 * a span" checks through the public API of the part under test. Call `stop()` in afterAll.
 */
export function captureSpans(serviceName = 'test'): {
  spans(): ReadableSpan[];
  reset(): void;
  stop(): Promise<void>;
} {
  const exporter = new InMemorySpanExporter();
  const installed = installTracing({ serviceName, processors: [new SimpleSpanProcessor({ exporter })] });
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    stop: () => installed.shutdown(),
  };
}
