import { randomUUID } from 'node:crypto';
import type { Collection, Doc, DocStore } from '../../src/doc-store/port';
import { describeCrudContract } from './doc-store-contract-crud';
import { describeFilterContract } from './doc-store-contract-filters';
import { describeFindOptionsContract } from './doc-store-contract-find-options';
import { describeIndexContract } from './doc-store-contract-indexes';
import { describeConcurrencyContract } from './doc-store-contract-concurrency';
import { describeBucketContract } from './doc-store-contract-buckets';

/** What each part of the suite gets: a fresh, empty collection per call, all on one store. */
export interface DocStoreKit {
  coll<T extends Doc = Doc>(): Collection<T>;
}

export interface DocStoreContractOptions {
  /** Per-test timeout; a remote server may need more than the default. */
  timeoutMs?: number;
}

/**
 * The behaviour every DocStore adapter must have: MongoDB's meaning of the port's subset of the
 * query language, indexes, and atomicity under concurrency. `makeStore` is called once per suite;
 * the store is closed at the end. Expectations are MongoDB's own, so the suite is also the check
 * that the embedded store speaks the same language.
 */
export function describeDocStoreContract(
  name: string,
  makeStore: () => Promise<DocStore>,
  opts: DocStoreContractOptions = {},
): void {
  describe(`DocStore contract: ${name}`, () => {
    let store: DocStore | undefined;
    const prefix = `t${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    let n = 0;
    if (opts.timeoutMs) jest.setTimeout(opts.timeoutMs);
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });

    const kit: DocStoreKit = {
      coll: <T extends Doc = Doc>() => {
        if (!store) throw new Error('store not ready');
        n += 1;
        return store.collection<T>(`${prefix}_${n}`);
      },
    };
    describe('insert, find, count, delete', () => describeCrudContract(kit));
    describe('filters', () => describeFilterContract(kit));
    describe('filters over indexed paths', () => describeFilterContract(kit, { indexed: true }));
    describe('sort, skip, limit, projection', () => describeFindOptionsContract(kit));
    describe('indexes', () => describeIndexContract(kit));
    describe('concurrency', () => describeConcurrencyContract(kit));
    describe('bucket totals', () => describeBucketContract(kit));
    describe('bucket totals over an index', () => describeBucketContract(kit, { indexed: true }));
  });
}
