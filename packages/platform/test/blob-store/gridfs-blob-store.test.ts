/**
 * GridfsBlobStore against the server at MONGODB_URL when it is set — `pnpm test:mongo` sets it (to an
 * in-memory CongoDB unless given a real MongoDB) — in a fresh database, dropped after;
 * otherwise only the checks that need no server run, and the contract suite says why it is skipped.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { BadRequestError, UnavailableError } from '@patchbay/contracts';
import { GridfsBlobStore } from '../../src/blob-store/gridfs-blob-store';
import { describeBlobStoreContract } from './blob-store-contract';
import { bufferStream } from './blob-test-kit';

const url = process.env.MONGODB_URL;

/** Chunks whose files-document does not exist: what a failed put must never leave. */
async function orphanChunks(db: Db, bucket: string): Promise<string[]> {
  const rows = await db
    .collection(`${bucket}.chunks`)
    .aggregate<{ _id: unknown }>([
      { $group: { _id: '$files_id' } },
      { $lookup: { from: `${bucket}.files`, localField: '_id', foreignField: '_id', as: 'file' } },
      { $match: { file: { $size: 0 } } },
    ])
    .toArray();
  return rows.map((r) => String(r._id));
}

if (url) {
  const client = new MongoClient(url);
  const db = client.db(`patchbay_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  describeBlobStoreContract('GridfsBlobStore', async () => new GridfsBlobStore({ db, bucketName: 'contract' }), {
    leftovers: () => orphanChunks(db, 'contract'),
  });

  describe('GridfsBlobStore specifics', () => {
    it('keeps overwritten revisions for readers until the grace period, then only the newest', async () => {
      const store = new GridfsBlobStore({ db, bucketName: 'revs', revisionGraceMs: 60_000 });
      await store.put('k', bufferStream('one'));
      await store.put('k', bufferStream('two'));
      expect(await db.collection('revs.files').countDocuments({ filename: 'k' })).toBe(2);
      await store.close(); // runs the pending deletions now
      expect(await db.collection('revs.files').countDocuments({ filename: 'k' })).toBe(1);
      expect(await orphanChunks(db, 'revs')).toEqual([]);
    });

    it('deletes every revision and their chunks', async () => {
      const store = new GridfsBlobStore({ db, bucketName: 'del', revisionGraceMs: 60_000 });
      await store.put('k', bufferStream('one'));
      await store.put('k', bufferStream('two'));
      await store.delete('k');
      expect(await db.collection('del.files').countDocuments({})).toBe(0);
      expect(await db.collection('del.chunks').countDocuments({})).toBe(0);
      await store.close();
    });

    it('sweeps chunks of uploads that never finished', async () => {
      const store = new GridfsBlobStore({ db, bucketName: 'sweep', revisionGraceMs: 0 });
      await store.put('k', bufferStream('kept'));
      await db.collection('sweep.chunks').insertOne({
        files_id: ObjectId.createFromTime(Math.floor(Date.now() / 1000) - 3600),
        n: 0,
        data: Buffer.from('x'),
      });
      await expect(store.sweepOrphans(10 * 60_000)).resolves.toBe(1);
      expect(await orphanChunks(db, 'sweep')).toEqual([]);
      expect((await store.stat('k')).size).toBe(4);
    });
  });
} else {
  console.warn(
    'GridfsBlobStore contract suite skipped: MONGODB_URL is not set (no ' +
      'MongoDB server reachable here). Run `pnpm test:mongo` (or set ' +
      'MONGODB_URL=mongodb://…) to run it.',
  );
  describe.skip('BlobStore contract: GridfsBlobStore (needs MONGODB_URL)', () => {
    it('runs against a real MongoDB', () => undefined);
  });
}

describe('GridfsBlobStore without a server', () => {
  // The driver connects lazily and fails only after server selection times out: port 9 (discard) is closed.
  const client = new MongoClient('mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=300');
  const store = new GridfsBlobStore({ db: client.db('nowhere') });
  afterAll(() => client.close());

  it('rejects bad keys before any I/O', async () => {
    await expect(store.get('../etc/passwd')).rejects.toBeInstanceOf(BadRequestError);
    await expect(store.put('/abs', bufferStream('x'))).rejects.toBeInstanceOf(BadRequestError);
  });

  it('turns an unreachable server into UnavailableError, never a raw driver error', async () => {
    await expect(store.stat('k')).rejects.toBeInstanceOf(UnavailableError);
    await expect(store.put('k', bufferStream('x'))).rejects.toBeInstanceOf(UnavailableError);
  });
});
