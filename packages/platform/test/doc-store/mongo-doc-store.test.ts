/**
 * MongoDocStore against the server at MONGODB_URL when it is set — `pnpm test:mongo` sets it (to an
 * in-memory CongoDB unless given a real MongoDB) — in a fresh database, dropped after;
 * otherwise only the checks that need no server run, and the contract suite says why it is skipped.
 */
import { randomUUID } from 'node:crypto';
import { UnavailableError } from '@patchbay/contracts';
import { MongoDocStore } from '../../src/doc-store/mongo-doc-store';
import type { DocStore } from '../../src/doc-store/port';
import { describeDocStoreContract } from './doc-store-contract';

const url = process.env.MONGODB_URL;

if (url) {
  describeDocStoreContract(
    'MongoDocStore',
    async (): Promise<DocStore> => {
      const store = await MongoDocStore.connect({
        url,
        dbName: `patchbay_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
      });
      return {
        collection: (name) => store.collection(name),
        close: async () => {
          await store.db.dropDatabase();
          await store.close();
        },
      };
    },
    { timeoutMs: 60_000 },
  );
} else {
  console.warn(
    'MongoDocStore contract suite skipped: MONGODB_URL is not set (no ' +
      'MongoDB server reachable here). Run `pnpm test:mongo` (or set ' +
      'MONGODB_URL=mongodb://…) to run it.',
  );
  describe.skip('DocStore contract: MongoDocStore (needs MONGODB_URL)', () => {
    test('runs against a real MongoDB', () => undefined);
  });
}

describe('MongoDocStore without a server', () => {
  test('connect fails with UnavailableError, never a raw driver error', async () => {
    // Port 9 (discard) is closed; server selection gives up after 300 ms.
    await expect(
      MongoDocStore.connect({ url: 'mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=300' }),
    ).rejects.toBeInstanceOf(UnavailableError);
  });
});
