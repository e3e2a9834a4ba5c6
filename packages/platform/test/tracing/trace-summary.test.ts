/** The start-up line of a process that traces: where the spans go, never a collector's credentials. */
import { describeTracing, otlpTracesUrl } from '../../src/tracing/trace-summary';

const all = { ratio: 1, parentBased: true };

test('OTLP: the traces URL the exporter uses, without user, password or query; headers never shown', () => {
  const env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:s3cret@collector.example:4318/',
    OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer abc123',
  };
  const line = describeTracing({ kind: 'otlp', protocol: 'http/protobuf' }, all, 'patchbay-gateway', env);
  expect(line).toBe(
    'tracing on: service patchbay-gateway, spans exported over OTLP http/protobuf to ' +
      "https://collector.example:4318/v1/traces; sampling every new trace, and what a caller's trace decided",
  );
  expect(line).not.toMatch(/s3cret|abc123|user/);
  expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom?token=x' })).toBe(
    'http://c:4318/custom?token=x',
  );
  expect(
    describeTracing({ kind: 'otlp', protocol: 'http/json' }, all, 'p', {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom?token=x',
    }),
  ).toContain('to http://c:4318/custom;');
  expect(otlpTracesUrl({})).toBe('http://localhost:4318/v1/traces');
});

test('the console, and the share of new traces kept', () => {
  expect(describeTracing({ kind: 'console' }, { ratio: 0.05, parentBased: false }, 'patchbay', {})).toBe(
    'tracing on: service patchbay, spans exported to the console (stdout); sampling 5% of new traces',
  );
});
