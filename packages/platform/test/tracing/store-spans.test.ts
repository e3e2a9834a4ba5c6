import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { addBlobSpans } from '../../src/blob-store/blob-spans';
import { DirBlobStore } from '../../src/blob-store/dir-blob-store';
import { SqliteDocStore } from '../../src/doc-store/sqlite-doc-store';
import { TracedDocStore } from '../../src/doc-store/traced-doc-store';
import { installTracing, type InstalledTracing } from '../../src/tracing/install-tracing';

/** Spans at the store ports (decisions §42): one per call, naming the operation, never the data. */
const exporter = new InMemorySpanExporter();
let tracing: InstalledTracing;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-store-spans-'));
beforeAll(() => {
  tracing = installTracing({ serviceName: 'store-test', processors: [new SimpleSpanProcessor({ exporter })] });
});
afterAll(async () => {
  await tracing.shutdown();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => exporter.reset());

test(
  'document store: a client span per call, with the store kind, ' + 'collection and operation; no filter or document',
  async () => {
    const docs = new TracedDocStore(new SqliteDocStore(), 'sqlite');
    const things = docs.collection('things');
    await things.insertOne({ id: 'a', secret: 'hunter2' });
    expect(await things.findOne({ secret: 'hunter2' })).toMatchObject({ id: 'a' });
    await docs.close();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.kind])).toEqual([
      ['insertOne things', SpanKind.CLIENT],
      ['findOne things', SpanKind.CLIENT],
    ]);
    expect(spans[1].attributes).toEqual({
      'db.system.name': 'sqlite',
      'db.collection.name': 'things',
      'db.operation.name': 'findOne',
    });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('hunter2');
  },
);

test(
  'blob store: spans added in place (the store keeps its class), with ' +
    'the key’s first segment only; a failure marks its span',
  async () => {
    const store = addBlobSpans(new DirBlobStore({ dir }));
    expect(store).toBeInstanceOf(DirBlobStore);
    await store.put('files/p1/f1', Readable.from([Buffer.from('bytes')]));
    await expect(store.get('files/p1/missing')).rejects.toMatchObject({ status: 404 });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['blob put', 'blob get']);
    expect(spans[0].attributes).toEqual({ 'patchbay.blob.operation': 'put', 'patchbay.blob.area': 'files' });
    expect(spans.map((s) => s.status.code)).toEqual([0, 2]);
  },
);

test('blob store: spans measure I/O (none for stat or a kept reader opening; a read on a cache miss)', async () => {
  const store = addBlobSpans(new DirBlobStore({ dir, blockCacheBytes: 1024 * 1024 }));
  await store.put('files/p1/f2', Readable.from([Buffer.from('bytes')]));
  exporter.reset();
  expect((await store.stat('files/p1/f2')).size).toBe(5);
  await expect(store.stat('files/p1/missing')).rejects.toMatchObject({ status: 404 });
  expect(exporter.getFinishedSpans()).toEqual([]);
  for (let i = 0; i < 2; i++) {
    const kept = (await store.openReader('files/p1/f2', { keepOpenMs: 1000, size: 5 }))!;
    expect(Buffer.concat(await kept.slices!(1, 3)).toString()).toBe('yte');
    kept.close();
  }
  // The first read went to the file (a block-cache miss); the second was answered from memory.
  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['blob read']);
  expect(exporter.getFinishedSpans()[0].attributes).toEqual({
    'patchbay.blob.operation': 'read',
    'patchbay.blob.area': 'files',
  });
  const once = (await store.openReader('files/p1/f2'))!;
  once.close();
  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['blob read', 'blob open']);
  await store.close();
});
