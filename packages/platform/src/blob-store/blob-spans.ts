import { inSpan, SpanKind } from '../tracing/span-helpers';
import type { BlobStore } from './port';

/**
 * Puts a span around each call of `store` through the blob-store port that does store I/O
 * (`blob <operation>`, with the key's first segment — `files`, `cache`, `ext` — never the whole
 * key), in place: the store keeps its class and its other members (the file server asks
 * `instanceof RoutedBlobStore`), so nothing that inspects a store changes. A `get` span covers
 * opening the stream, not reading it; an `openReader` span likewise. Used only while tracing runs
 * (see `withStoreSpans`).
 *
 * A span must measure I/O, not a map lookup: no span for `stat` (a metadata lookup, on the file
 * server's hot path; the MongoDB instrumentation traces GridFS's query itself), nor for a reader
 * kept open (`keepOpenMs`: the file server's small ranges, answered from a file already open and
 * the block cache) — the request's own span covers those.
 */
export function addBlobSpans<S extends BlobStore>(store: S): S {
  const span = <R>(op: string, key: string, call: () => Promise<R>): Promise<R> =>
    inSpan(
      `blob ${op}`,
      { kind: SpanKind.CLIENT, attributes: { 'patchbay.blob.operation': op, 'patchbay.blob.area': key.split('/')[0] } },
      call,
    );
  const { put, putFile, get, openReader } = store;
  const del = store.delete;
  store.put = (key, body, opts) => span('put', key, () => put.call(store, key, body, opts));
  if (putFile) store.putFile = (key, file, opts) => span('put', key, () => putFile.call(store, key, file, opts));
  store.get = (key, range) => span('get', key, () => get.call(store, key, range));
  if (openReader)
    store.openReader = (key, opts) =>
      (opts?.keepOpenMs ?? 0) > 0
        ? openReader.call(store, key, opts)
        : span('open', key, () => openReader.call(store, key, opts));
  store.delete = (key) => span('delete', key, () => del.call(store, key));
  return store;
}
