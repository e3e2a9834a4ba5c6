import http from 'node:http';

/**
 * The tracing switch of the benchmarks (decisions §42): `BENCH_TRACING=on` starts the Patchbay
 * under test with tracing on — OTLP over HTTP (protobuf, the default protocol) to a sink in this
 * process that reads and drops every export, so the services pay the whole cost of making,
 * batching, encoding and sending their spans — and off (unset, or `off`) as before. A collector of
 * your own instead: set OTEL_EXPORTER_OTLP_ENDPOINT yourself (the harness passes the environment
 * on) and leave BENCH_TRACING unset. Compare two runs, one each way: the ratio of their Patchbay
 * rows is tracing's overhead.
 */
export interface TracingSwitch {
  on: boolean;
  /** Environment for startPatchbay (empty when off). */
  env: Record<string, string>;
  /** A line for the report: what was exported. */
  summary(): string;
  stop(): Promise<void>;
}

export async function tracingSwitch(setting = process.env.BENCH_TRACING ?? 'off'): Promise<TracingSwitch> {
  if (setting !== 'on' && setting !== 'off') throw new Error(`BENCH_TRACING must be on or off, not ${setting}`);
  if (setting === 'off')
    return {
      on: false,
      env: {},
      summary: () =>
        process.env.OTEL_EXPORTER_OTLP_ENDPOINT
          ? `tracing: on, to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT} (from the environment)`
          : 'tracing: off (BENCH_TRACING=on to compare)',
      stop: async () => undefined,
    };
  let exports = 0;
  let bytes = 0;
  const sink = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const port = (sink.address() as { port: number }).port;
  return {
    on: true,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
    summary: () =>
      `tracing: on (OTLP http/protobuf to a local sink: ${exports} exports, ${(bytes / 1024).toFixed(0)} KiB)`,
    stop: () => new Promise<void>((r) => sink.close(() => r())),
  };
}
