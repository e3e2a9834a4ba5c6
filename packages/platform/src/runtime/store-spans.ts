import type { BlobStore } from '../blob-store/port';
import { addBlobSpans } from '../blob-store/blob-spans';
import type { DocStore } from '../doc-store/port';
import { TracedDocStore } from '../doc-store/traced-doc-store';
import { tracingStarted } from '../tracing/start-tracing';

/*
 * A process's stores with a span around each call through their ports while tracing runs, and as
 * they are otherwise: tracing off costs the stores nothing.
 */

/** The document store, traced when tracing runs (`mongodbUrl` says which kind it is). */
export function docStoreSpans(docs: DocStore, where: { mongodbUrl?: string }): DocStore {
  return tracingStarted() ? new TracedDocStore(docs, where.mongodbUrl ? 'mongodb' : 'sqlite') : docs;
}

/** The blob store, traced in place when tracing runs. */
export function blobStoreSpans<B extends BlobStore>(blobs: B): B {
  return tracingStarted() ? addBlobSpans(blobs) : blobs;
}
