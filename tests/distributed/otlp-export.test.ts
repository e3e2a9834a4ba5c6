/**
 * Export with the standard OpenTelemetry variables (decisions §42): a service started with
 * OTEL_EXPORTER_OTLP_ENDPOINT (and http/json) sends its spans to that OTLP/HTTP receiver — here a
 * tiny one in the test — with the service's name and the trace context its bus message carried;
 * started without any OTEL_* variable, it sends nothing at all.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { NatsBus } from '../../packages/platform/src/bus/nats-bus';
import { startNatsServer, type NatsServerHandle } from '../../packages/platform/src/testing/nats-server';
import { until } from '../support/poll';

const ROOT = path.resolve(__dirname, '../..');

/** What an OTLP/HTTP JSON export request holds, as far as this test reads it. */
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string }> }>;
  }>;
}

let nats: NatsServerHandle;
let receiver: http.Server;
const received: Array<{ path: string; contentType: string; raw: Buffer; body?: OtlpExport }> = [];
let receiverUrl: string;
beforeAll(async () => {
  nats = await startNatsServer();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type']);
      const body = contentType.startsWith('application/json')
        ? (JSON.parse(raw.toString('utf8')) as OtlpExport)
        : undefined;
      received.push({ path: req.url ?? '', contentType, raw, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(async () => {
  await nats?.stop();
  await new Promise((r) => receiver?.close(r));
});
beforeEach(() => (received.length = 0));

/**
 * Runs the identity service on its own (node with tsx's loader, so SIGTERM reaches it directly),
 * sends it one request carrying `traceparent`, and stops it gracefully (which flushes its spans).
 */
async function runIdentityOnce(otel: Record<string, string>, traceparent: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-otlp-'));
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services/identity/src/main.ts')], {
    cwd: ROOT,
    env: { ...env, NATS_URL: nats.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', OPS_PORT: '', ...otel },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const bus = await NatsBus.connect({ url: nats.url });
  try {
    await until(
      'identity to answer',
      30000,
      async () => {
        if (child.exitCode !== null) throw new Error(`identity exited with ${child.exitCode}:\n${output}`);
        const reply = await bus
          .request(
            'svc.identity.auth.token',
            { token: 'not-a-token' },
            { timeoutMs: 1000, traceContext: { traceparent } },
          )
          .catch(() => undefined);
        return reply && reply.status !== 503 ? reply : undefined;
      },
      { everyMs: 200 },
    );
  } finally {
    await bus.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

test(
  'with OTEL_EXPORTER_OTLP_ENDPOINT (http/json), the spans arrive at the ' + 'receiver, in the trace of the message',
  async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    await runIdentityOnce(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      `00-${traceId}-${parentId}-01`,
    );
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]).toMatchObject({ path: '/v1/traces', contentType: expect.stringContaining('application/json') });
    const resources = received.flatMap((r) => r.body?.resourceSpans ?? []);
    const names = resources.map((r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue);
    expect(new Set(names)).toEqual(new Set(['patchbay-identity']));
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const served = spans.filter((s) => s.name === 'serve svc.identity.auth.token' && s.traceId === traceId);
    expect(served.length).toBeGreaterThan(0);
    for (const s of served) expect(s.parentSpanId).toBe(parentId);
  },
  60000,
);

test(
  'by default (http/protobuf), to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ' + 'protobuf carrying the trace and the service',
  async () => {
    const traceId = randomBytes(16).toString('hex');
    await runIdentityOnce(
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiverUrl}/custom/traces` },
      `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    );
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]).toMatchObject({ path: '/custom/traces', contentType: 'application/x-protobuf' });
    // Protobuf carries IDs as raw bytes and names as UTF-8: both appear in the body as they are.
    const all = Buffer.concat(received.map((r) => r.raw));
    expect(all.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(all.includes(Buffer.from('patchbay-identity'))).toBe(true);
    expect(all.includes(Buffer.from('serve svc.identity.auth.token'))).toBe(true);
  },
  60000,
);

test('without any OTEL_* variable, nothing is sent', async () => {
  const traceId = randomBytes(16).toString('hex');
  await runIdentityOnce({}, `00-${traceId}-${randomBytes(8).toString('hex')}-01`);
  // The receiver would have had the spans at the graceful stop at the latest; give a late one a moment.
  await new Promise((r) => setTimeout(r, 500));
  expect(received).toEqual([]);
}, 60000);
