import type { Attributes } from '@opentelemetry/api';
import { inSpan, SpanKind } from '../tracing/span-helpers';
import type { Collection, Doc, DocStore } from './port';

/**
 * A span around every call through the document-store port (`<operation> <collection>`, a client
 * span with the store's kind and the collection), so a trace shows where a request waited on its
 * database whichever adapter holds it. Filters and documents are never put on a span: they hold
 * partners' data. Used only while tracing runs (see `withStoreSpans`).
 */
export class TracedDocStore implements DocStore {
  constructor(
    private readonly inner: DocStore,
    /** `sqlite` or `mongodb` (the span's db.system.name). */
    private readonly system: string,
  ) {}

  collection<T extends object = Doc>(name: string): Collection<T> {
    const c = this.inner.collection<T>(name);
    const base: Attributes = { 'db.system.name': this.system, 'db.collection.name': name };
    const span = <R>(op: string, call: () => Promise<R>): Promise<R> =>
      inSpan(`${op} ${name}`, { kind: SpanKind.CLIENT, attributes: { ...base, 'db.operation.name': op } }, call);
    const totals = c.bucketTotals?.bind(c);
    return {
      insertOne: (doc) => span('insertOne', () => c.insertOne(doc)),
      insertMany: (docs) => span('insertMany', () => c.insertMany(docs)),
      findOne: (filter, opts) => span('findOne', () => c.findOne(filter, opts)),
      find: (filter, opts) => span('find', () => c.find(filter, opts)),
      countDocuments: (filter) => span('countDocuments', () => c.countDocuments(filter)),
      updateOne: (filter, update) => span('updateOne', () => c.updateOne(filter, update)),
      updateMany: (filter, update) => span('updateMany', () => c.updateMany(filter, update)),
      findOneAndUpdate: (filter, update, opts) =>
        span('findOneAndUpdate', () => c.findOneAndUpdate(filter, update, opts)),
      replaceOne: (filter, doc) => span('replaceOne', () => c.replaceOne(filter, doc)),
      deleteOne: (filter) => span('deleteOne', () => c.deleteOne(filter)),
      deleteMany: (filter) => span('deleteMany', () => c.deleteMany(filter)),
      createIndex: (keys, opts) => span('createIndex', () => c.createIndex(keys, opts)),
      dropIndex: (keys) => span('dropIndex', () => c.dropIndex(keys)),
      ...(totals && { bucketTotals: (filter, query) => span('bucketTotals', () => totals(filter, query)) }),
    };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
