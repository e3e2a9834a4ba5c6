import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { FileSpanExporter } from './file-span-exporter';
import type { TraceExport } from './trace-settings';

/**
 * The span processor for `how`: OTLP over HTTP (protobuf or JSON) in batches — the exporters read
 * the endpoint, headers, timeout and batch sizes from the standard OTEL_* variables themselves —,
 * the console, or (tests) a file written span by span.
 */
export function spanProcessorFor(how: Exclude<TraceExport, { kind: 'off' }>): SpanProcessor {
  switch (how.kind) {
    case 'otlp':
      return new BatchSpanProcessor({
        exporter: how.protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter(),
      });
    case 'console':
      return new BatchSpanProcessor({ exporter: new ConsoleSpanExporter() });
    case 'file':
      return new SimpleSpanProcessor({ exporter: new FileSpanExporter(how.file) });
  }
}
