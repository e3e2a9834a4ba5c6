import { traceExport, traceSampling, traceServiceName, TraceSettingsError } from '../../src/tracing/trace-settings';

describe('traceExport: which OTEL_* variables turn tracing on, and how it exports', () => {
  test.each([
    [{}, { kind: 'off' }],
    [{ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' }, { kind: 'off' }],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, { kind: 'otlp', protocol: 'http/protobuf' }],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }, { kind: 'otlp', protocol: 'http/protobuf' }],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, { kind: 'otlp', protocol: 'http/protobuf' }],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      { kind: 'otlp', protocol: 'http/json' },
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      },
      { kind: 'otlp', protocol: 'http/json' },
    ],
    [{ OTEL_TRACES_EXPORTER: 'console' }, { kind: 'console' }],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, { kind: 'off' }],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, { kind: 'off' }],
    [{ PATCHBAY_TRACES_TEST_FILE: '/tmp/spans.jsonl' }, { kind: 'file', file: '/tmp/spans.jsonl' }],
  ])('%j → %j', (env, expected) => {
    expect(traceExport(env)).toEqual(expected);
  });

  test('a protocol or exporter Patchbay cannot honour stops start-up, naming the variable', () => {
    expect(() =>
      traceExport({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(
      new TraceSettingsError('OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported (http/protobuf or http/json)'),
    );
    expect(() => traceExport({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER: "zipkin"/);
  });
});

test('traceServiceName: OTEL_SERVICE_NAME, else the service whose entry point runs', () => {
  expect(traceServiceName({ OTEL_SERVICE_NAME: 'edge-gw' }, '/repo/services/gateway/src/main.ts')).toBe('edge-gw');
  expect(traceServiceName({}, '/repo/services/file-server/src/main.ts')).toBe('patchbay-file-server');
  expect(traceServiceName({}, '/repo/services/all-in-one/src/main.ts')).toBe('patchbay');
  const beside = (names: Record<string, string>) => (file: string) => names[file];
  expect(traceServiceName({}, '/app/main.js', beside({ '/app/main.js': '@patchbay/transcoder' }))).toBe(
    'patchbay-transcoder',
  );
  expect(traceServiceName({}, '/app/main.js', beside({}))).toBe('patchbay');
});

test('traceSampling: OTEL_TRACES_SAMPLER and its ratio; parent-based, every trace, by default', () => {
  expect(traceSampling({})).toEqual({ ratio: 1, parentBased: true });
  expect(traceSampling({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' })).toEqual({
    ratio: 0.1,
    parentBased: true,
  });
  expect(traceSampling({ OTEL_TRACES_SAMPLER: 'always_off' })).toEqual({ ratio: 0, parentBased: false });
  expect(() => traceSampling({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(
    /OTEL_TRACES_SAMPLER_ARG: "2"/,
  );
  expect(() => traceSampling({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER: "jaeger_remote"/);
});
