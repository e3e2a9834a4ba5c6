import { inSpan, SpanKind } from '../tracing/span-helpers';
import type { BlobStore } from './port';

/**
 * Puts a span around each call of `store` through the blob-store port (`blob <operation>`, with
 * the key's first segment — `files`, `cache`, `ext` — never the whole key), in place: the store
 * keeps its class and its other members (the file server asks `instanceof RoutedBlobStore`), so
 * nothing that inspects a store changes. A `get` span covers opening the stream, not reading it;
 * an `openReader` span likewise (the reads are the file server's hot path). Used only while
 * tracing runs (see `withStoreSpans`).
 */
export function addBlobSpans<S extends BlobStore>(store: S): S {
  const span = <R>(op: string, key: string, call: () => Promise<R>): Promise<R> =>
    inSpan(
      `blob ${op}`,
      { kind: SpanKind.CLIENT, attributes: { 'patchbay.blob.operation': op, 'patchbay.blob.area': key.split('/')[0] } },
      call,
    );
  const { put, putFile, get, openReader, stat } = store;
  const del = store.delete;
  store.put = (key, body, opts) => span('put', key, () => put.call(store, key, body, opts));
  if (putFile) store.putFile = (key, file, opts) => span('put', key, () => putFile.call(store, key, file, opts));
  store.get = (key, range) => span('get', key, () => get.call(store, key, range));
  if (openReader) store.openReader = (key, opts) => span('open', key, () => openReader.call(store, key, opts));
  store.stat = (key) => span('stat', key, () => stat.call(store, key));
  store.delete = (key) => span('delete', key, () => del.call(store, key));
  return store;
}
