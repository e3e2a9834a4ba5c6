import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Registry } from 'prom-client';
import { Subjects } from '@patchbay/contracts';
import { createLogger, DirBlobStore, MemoryBus, type Stoppable } from '@patchbay/platform';
import { addBlobSpans } from '@patchbay/platform/src/blob-store/blob-spans';
import type { RecordedSpan } from '@patchbay/platform/src/tracing/file-span-exporter';
import { installTracing, type InstalledTracing } from '@patchbay/platform/src/tracing/install-tracing';
import { spanProcessorFor } from '@patchbay/platform/src/tracing/span-exporters';
import { startFileServer } from '../src/start';
import { until } from '../../../tests/support/poll';

/**
 * The file server's own lean SERVER span (tracing/server-span.ts): one per request, child of the
 * caller's W3C trace context, with the stable HTTP attributes only; no blob span for a range read
 * from a file kept open. Spans go to a file (the test exporter of trace-settings.ts).
 */
const SERVER = 1;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-fs-span-'));
const spanFile = path.join(root, 'spans.jsonl');
const hub = MemoryBus.hub();
const storage = new MemoryBus(hub);
const fileServerBus = new MemoryBus(hub);
// As bootService gives it to the file server while tracing runs (runtime/store-spans.ts).
const served = addBlobSpans(new DirBlobStore({ dir: path.join(root, 'blobs'), blockCacheBytes: 1024 * 1024 }));
let server: Stoppable & { port: number };
let tracing: InstalledTracing;

const spans = (): RecordedSpan[] =>
  fs.existsSync(spanFile)
    ? fs
        .readFileSync(spanFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as RecordedSpan)
    : [];

/** The spans of trace `traceId` once its server span has ended (it ends when the reply closes). */
async function traceOf(traceId: string): Promise<RecordedSpan[]> {
  return until(
    `a server span in trace ${traceId}`,
    2000,
    () => {
      const t = spans().filter((s) => s.traceId === traceId);
      return t.some((s) => s.kind === SERVER) ? t : undefined;
    },
    { everyMs: 20 },
  );
}

beforeAll(async () => {
  tracing = installTracing({
    serviceName: 'file-server-test',
    processors: [spanProcessorFor({ kind: 'file', file: spanFile })],
  });
  await served.put('files/P1/FI1', Readable.from([Buffer.alloc(200_000, 7)]));
  await storage.serve(Subjects.storage.fileResolvePublic, 'storage', async (req) =>
    (req as { id?: unknown }).id !== 'FI1' // as: storage's request body, { id } (StorageClient.resolvePublic)
      ? { status: 404, error: { status: 404, code: 'not_found', message: 'Not Found', errors: [] } }
      : {
          status: 200,
          body: {
            file_sid: 'FI1',
            blob_key: 'files/P1/FI1',
            file_bytes: 200_000,
            mime_type: 'audio/x-wav',
            name: 'a.wav',
            file_access_name: 'FI1.wav',
            content_format: 'wav',
            content_bitrate: null,
            last_modified: new Date().toISOString(),
          },
        },
  );
  server = await startFileServer(
    {
      bus: fileServerBus,
      blobs: served,
      logger: createLogger({ name: 'file-server-test', level: 'silent' }),
      metrics: new Registry(),
    },
    { port: 0, cacheTtlMs: 60_000, busTimeoutMs: 5000, transcodeTimeoutMs: 5000, keepOpenMs: 60_000 },
  );
});
afterAll(async () => {
  await server.stop();
  await served.close();
  await Promise.all([storage.close(), fileServerBus.close()]);
  await tracing.shutdown();
  fs.rmSync(root, { recursive: true, force: true });
});

test('a range request: one server span, child of the caller’s traceparent, status code 206', async () => {
  const range = async (traceId: string) => {
    const callerSpan = traceId.slice(0, 16);
    const res = await fetch(`http://127.0.0.1:${server.port}/f/FI1?dl=0`, {
      headers: { Range: 'bytes=1000-66535', traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(res.status).toBe(206);
    expect((await res.arrayBuffer()).byteLength).toBe(65536);
    const t = await traceOf(traceId);
    const serverSpans = t.filter((s) => s.kind === SERVER);
    expect(serverSpans).toHaveLength(1);
    expect(serverSpans[0]).toMatchObject({
      name: 'GET /f/:id',
      parentSpanId: callerSpan,
      attributes: {
        'http.request.method': 'GET',
        'url.path': '/f/FI1',
        'http.route': '/f/:id',
        'http.response.status_code': 206,
      },
    });
    return t.filter((s) => s.name.startsWith('blob ')).map((s) => [s.name, s.parentSpanId === serverSpans[0].spanId]);
  };
  // The first read went to the disk (a block-cache miss): its span is beneath the request's.
  expect(await range('4bf92f3577b34da6a3ce929d0e0e4736')).toEqual([['blob read', true]]);
  // The same bytes again, from the block cache of a file kept open: a map lookup, no blob span.
  expect(await range('5bf92f3577b34da6a3ce929d0e0e4737')).toEqual([]);
});

test('without a traceparent the request starts a new trace; an unknown file is a 404 on its span', async () => {
  const res = await fetch(`http://127.0.0.1:${server.port}/f/NOPE`);
  expect(res.status).toBe(404);
  const mine = await until(
    'a server span for /f/NOPE',
    2000,
    () => spans().find((s) => s.kind === SERVER && s.attributes['url.path'] === '/f/NOPE'),
    { everyMs: 20 },
  );
  expect(mine.parentSpanId).toBeUndefined();
  expect(mine.attributes['http.response.status_code']).toBe(res.status);
});
