import { context } from '@opentelemetry/api';
import { failSpan, inSpan, isQuiet, SpanKind, tracer } from '../tracing/span-helpers';
import type { BlobReader, BlobStore } from './port';

/**
 * Puts a span around each call of `store` through the blob-store port that does store I/O
 * (`blob <operation>`, with the key's first segment — `files`, `cache`, `ext` — never the whole
 * key), in place: the store keeps its class and its other members (the file server asks
 * `instanceof RoutedBlobStore`), so nothing that inspects a store changes. A `get` span covers
 * opening the stream, not reading it; an `openReader` span likewise. Used only while tracing runs
 * (see `withStoreSpans`).
 *
 * A span measures I/O, not a map lookup: none for `stat` (a metadata lookup on the file server's
 * hot path; GridFS's query has the MongoDB instrumentation's span). A reader kept open
 * (`keepOpenMs`: the file server's small ranges) is mostly a file already open and bytes from the
 * block cache: no span for its open, and a `blob read` span for a read only when it waits on the
 * store (a block-cache miss), none when it is answered from memory.
 */
export function addBlobSpans<S extends BlobStore>(store: S): S {
  const span = <R>(op: string, key: string, call: () => Promise<R>): Promise<R> =>
    inSpan(`blob ${op}`, { kind: SpanKind.CLIENT, attributes: attributesOf(op, key) }, call);
  const { put, putFile, get, openReader } = store;
  const del = store.delete;
  store.put = (key, body, opts) => span('put', key, () => put.call(store, key, body, opts));
  if (putFile) store.putFile = (key, file, opts) => span('put', key, () => putFile.call(store, key, file, opts));
  store.get = (key, range) => span('get', key, () => get.call(store, key, range));
  if (openReader)
    store.openReader = (key, opts) =>
      (opts?.keepOpenMs ?? 0) > 0
        ? openReader.call(store, key, opts).then((r) => r && new KeptReaderSpans(r, key))
        : span('open', key, () => openReader.call(store, key, opts));
  store.delete = (key) => span('delete', key, () => del.call(store, key));
  return store;
}

const attributesOf = (op: string, key: string) => ({
  'patchbay.blob.operation': op,
  'patchbay.blob.area': key.split('/')[0],
});

/** A kept reader whose reads get a `blob read` span when they wait on the store (readWithSpan). */
class KeptReaderSpans implements BlobReader {
  readonly slices?: (position: number, length: number) => Promise<Buffer[]>;

  constructor(
    private readonly inner: BlobReader,
    private readonly key: string,
  ) {
    const { slices } = inner;
    if (slices) this.slices = (position, length) => readWithSpan(key, () => slices.call(inner, position, length));
  }

  get size(): number {
    return this.inner.size;
  }

  read(into: Buffer, position: number, length: number): Promise<number> {
    return readWithSpan(this.key, () => this.inner.read(into, position, length));
  }

  close(): void {
    this.inner.close();
  }
}

/**
 * `read()`, with a `blob read` span from its call to its end when it waits on the store; none
 * when it was answered from memory — a read from the block cache returns a promise already
 * settled, which one microtask later has run the callback registered on it.
 */
async function readWithSpan<R>(key: string, read: () => Promise<R>): Promise<R> {
  const parent = context.active();
  if (isQuiet(parent)) return read(); // a background loop's look for work (tracing/quiet.ts)
  const started = performance.now();
  const pending = read();
  let settled = false;
  const done = () => (settled = true);
  pending.then(done, done);
  await Promise.resolve();
  if (settled) return pending;
  const span = tracer().startSpan(
    'blob read',
    { kind: SpanKind.CLIENT, attributes: attributesOf('read', key), startTime: started },
    parent,
  );
  try {
    return await pending;
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end(performance.now());
  }
}
