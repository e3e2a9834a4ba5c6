/**
 * The stores of a Patchbay instance under test, opened the way its services open them, for the few
 * tests that check what is stored rather than what the API answers. Blobs are seen through the
 * blob-store port, so a check holds for the directory store and GridFS alike (and any later
 * adapter); only what interrupted writes leave behind is adapter-specific, as in the contract
 * suite's `leftovers`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { DirBlobStore } from '../../packages/platform/src/blob-store/dir-blob-store';
import { GridfsBlobStore } from '../../packages/platform/src/blob-store/gridfs-blob-store';
import type { BlobStore } from '../../packages/platform/src/blob-store/port';
import { mongoDbName } from '../../packages/platform/src/runtime/adapters';

/** What of an instance these helpers need (a running or a killed one). */
export interface StoredInstance {
  dataDir: string;
  mongoDbPrefix?: string;
}

export interface InstanceBlobs {
  /** The instance's blob store (directory or GridFS, as its services use it). */
  store: BlobStore;
  /** Keys of the whole objects under `prefix`, through the port. */
  keys(prefix: string): Promise<string[]>;
  /** What interrupted writes left that no reader sees: temp files (directory), chunks without a files document (GridFS). */
  incomplete(): Promise<string[]>;
  close(): Promise<void>;
}

const mongoUrl = (): string | undefined => process.env.MONGODB_URL || undefined;

export async function instanceBlobs(inst: StoredInstance): Promise<InstanceBlobs> {
  const url = mongoUrl();
  if (!url) {
    const dir = path.join(inst.dataDir, 'blobs');
    const store = new DirBlobStore({ dir });
    const tmp = path.join(dir, '.tmp');
    return {
      store,
      keys: (prefix) => collect(store, prefix),
      incomplete: async () => (fs.existsSync(tmp) ? fs.readdirSync(tmp) : []),
      close: async () => undefined,
    };
  }
  const client = new MongoClient(url);
  const db = client.db(mongoDbName({ mongodbDbPrefix: inst.mongoDbPrefix }, 'blobs'));
  // No grace period: this store only reads, and a test's own puts replace at once.
  const store = new GridfsBlobStore({ db, revisionGraceMs: 0 });
  return {
    store,
    keys: (prefix) => collect(store, prefix),
    incomplete: async () => {
      const rows = await db.collection('fs.chunks').aggregate<{ _id: unknown }>([
        { $group: { _id: '$files_id' } },
        { $lookup: { from: 'fs.files', localField: '_id', foreignField: '_id', as: 'file' } },
        { $match: { file: { $size: 0 } } },
      ]).toArray();
      return rows.map((r) => String(r._id));
    },
    close: async () => {
      await store.close();
      await client.close();
    },
  };
}

async function collect(store: BlobStore, prefix: string): Promise<string[]> {
  if (!store.list) throw new Error('this blob store cannot list keys');
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys;
}

/**
 * Loses the named services' own data, as a data directory older than those services would look:
 * their directories under the data directory, or their MongoDB databases. Only while the
 * instance is down.
 */
export async function loseServiceData(inst: StoredInstance, services: string[]): Promise<void> {
  const url = mongoUrl();
  if (!url) {
    for (const svc of services) fs.rmSync(path.join(inst.dataDir, svc), { recursive: true, force: true });
    return;
  }
  const client = new MongoClient(url);
  try {
    for (const svc of services) await client.db(mongoDbName({ mongodbDbPrefix: inst.mongoDbPrefix }, svc)).dropDatabase();
  } finally {
    await client.close();
  }
}
