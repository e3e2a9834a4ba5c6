import { appendFileSync } from 'node:fs';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** One finished span as the test file holds it (one JSON object per line). */
export interface RecordedSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  status: number;
}

/**
 * Tests only (PATCHBAY_TRACES_TEST_FILE): appends every finished span to a file as a JSON line,
 * at once, so a test can read the spans of the processes it started — an in-memory exporter whose
 * memory is a file several processes share (appends of one line each do not interleave).
 */
export class FileSpanExporter implements SpanExporter {
  constructor(private readonly file: string) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    try {
      appendFileSync(this.file, spans.map((s) => `${JSON.stringify(recordOf(s))}\n`).join(''));
      done({ code: ExportResultCode.SUCCESS });
    } catch (err) {
      done({ code: ExportResultCode.FAILED, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }

  async shutdown(): Promise<void> {}
}

export function recordOf(s: ReadableSpan): RecordedSpan {
  return {
    service: String(s.resource.attributes['service.name'] ?? ''),
    name: s.name,
    kind: s.kind,
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId,
    attributes: { ...s.attributes },
    status: s.status.code,
  };
}
