/**
 * The stores of a Patchbay instance under test, opened the way its services open them, for the few
 * tests that check what is stored rather than what the API answers. Blobs are seen through the
 * blob-store port, so a check holds for the directory store and GridFS alike (and any later
 * adapter); only what interrupted writes leave behind is adapter-specific, as in the contract
 * suite's `leftovers`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { S3BlobStore, parseS3Url } from '@patchbay/blob-s3';
import { DirBlobStore } from '../../packages/platform/src/blob-store/dir-blob-store';
import { GridfsBlobStore } from '../../packages/platform/src/blob-store/gridfs-blob-store';
import type { BlobStore } from '../../packages/platform/src/blob-store/port';
import { mongoDbName } from '../../packages/platform/src/runtime/adapters';
import { errorCode } from '../../packages/platform/src/basics/error-fields';

/** What of an instance these helpers need (a running or a killed one). */
export interface StoredInstance {
  dataDir: string;
  mongoDbPrefix?: string;
  /** Patchbay's own blobs on S3 (`pnpm test:s3`). */
  blobStoreUrl?: string;
}

export interface InstanceBlobs {
  /** The instance's blob store (directory or GridFS, as its services use it). */
  store: BlobStore;
  /** Keys of the whole objects under `prefix`, through the port. */
  keys(prefix: string): Promise<string[]>;
  /**
   * What interrupted writes left that no reader sees: temp files (directory), chunks without a files document (GridFS).
   */
  incomplete(): Promise<string[]>;
  /** Every trace of blobs: the whole objects' keys and what interrupted writes left. */
  traces(): Promise<string[]>;
  close(): Promise<void>;
}

const mongoUrl = (): string | undefined => process.env.MONGODB_URL || undefined;

export async function instanceBlobs(inst: StoredInstance): Promise<InstanceBlobs> {
  const blobs = await openBlobs(inst);
  return { ...blobs, traces: async () => [...(await blobs.keys('')), ...(await blobs.incomplete())] };
}

async function openBlobs(inst: StoredInstance): Promise<Omit<InstanceBlobs, 'traces'>> {
  if (inst.blobStoreUrl) {
    // Only whole objects are visible in S3: an interrupted upload leaves nothing a reader sees.
    const store = new S3BlobStore({
      ...parseS3Url(inst.blobStoreUrl),
      credentials: {
        access_key_id: process.env.AWS_ACCESS_KEY_ID ?? 'S3RVER',
        secret_access_key: process.env.AWS_SECRET_ACCESS_KEY ?? 'S3RVER',
      },
      allowPrivateAddresses: true,
    });
    return { store, keys: (prefix) => collect(store, prefix), incomplete: async () => [], close: () => store.close() };
  }
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
      const rows = await db
        .collection('fs.chunks')
        .aggregate<{ _id: unknown }>([
          { $group: { _id: '$files_id' } },
          { $lookup: { from: 'fs.files', localField: '_id', foreignField: '_id', as: 'file' } },
          { $match: { file: { $size: 0 } } },
        ])
        .toArray();
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
    for (const svc of services)
      await client.db(mongoDbName({ mongodbDbPrefix: inst.mongoDbPrefix }, svc)).dropDatabase();
  } finally {
    await client.close();
  }
}

/**
 * A piece of what an instance stores, as text: a file of its data directory, or one document of its MongoDB databases
 * (`where` = `<db>.<collection>`).
 */
export interface StoredText {
  where: string;
  text: string;
}

/** Everything the instance stores, as text (to look for what must never be stored). */
export async function storedTexts(inst: StoredInstance): Promise<StoredText[]> {
  const url = mongoUrl();
  if (!url) return filesUnder(inst.dataDir);
  const client = new MongoClient(url);
  try {
    const out: StoredText[] = [];
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name } of databases.filter((d) => d.name.startsWith(`${inst.mongoDbPrefix}_`))) {
      const db = client.db(name);
      for (const c of await db.listCollections({}, { nameOnly: true }).toArray()) {
        for (const doc of await db.collection(c.name).find({}).toArray())
          out.push({ where: `${name}.${c.name}`, text: JSON.stringify(doc) });
      }
    }
    return out;
  } finally {
    await client.close();
  }
}

/**
 * The data directory's files as text, except the services' SQLite databases, which are read as
 * their documents (`where` = `<file>#<table>#<row id>`; the -wal and -shm files belong to them).
 */
function filesUnder(dir: string): StoredText[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !/\.sqlite-(wal|shm)$/.test(d.name))
    .map((d) => path.join(d.parentPath, d.name))
    .flatMap((file) => (file.endsWith('.sqlite') ? sqliteDocuments(file) : readIfThere(file)));
}

/** A file's text, or nothing when it went between the listing and the read (a job's scratch on a shared instance). */
function readIfThere(file: string): StoredText[] {
  try {
    return [{ where: file, text: fs.readFileSync(file).toString('latin1') }];
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return [];
    throw err;
  }
}

function sqliteDocuments(file: string): StoredText[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '\\_patchbay%' ESCAPE '\\'`)
      .all() as { name: string }[];
    return tables.flatMap(({ name }) => {
      const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as { name: string }[];
      if (!columns.some((c) => c.name === 'doc')) return [];
      const rows = db.prepare(`SELECT id, doc FROM "${name}"`).all() as { id: number; doc: string }[];
      return rows.map((r) => ({ where: `${file}#${name}#${r.id}`, text: r.doc }));
    });
  } finally {
    db.close();
  }
}

/** Where a service's own records are: `where` of each of them starts with this. */
export function serviceLocation(inst: StoredInstance, service: string): string {
  return mongoUrl()
    ? `${mongoDbName({ mongodbDbPrefix: inst.mongoDbPrefix }, service)}.`
    : path.join(inst.dataDir, service) + path.sep;
}

type StoredDoc = Record<string, unknown>;

/**
 * Changes, as `change` says, the stored document of `record` that `match` picks — behind the
 * services' back, as an older version of Patchbay or a restored backup would have left it. Only
 * while the instance is down: the embedded store's row (SQLite) or MongoDB's document is replaced.
 */
export async function rewriteStored(
  inst: StoredInstance,
  record: StoredText,
  match: (doc: StoredDoc) => boolean,
  change: (doc: StoredDoc) => void,
): Promise<void> {
  const url = mongoUrl();
  if (!url) {
    const [file, table, id] = record.where.split('#');
    const db = new Database(file);
    try {
      const row = db.prepare(`SELECT doc FROM "${table}" WHERE id = ?`).get(Number(id)) as { doc: string } | undefined;
      const doc = row && (JSON.parse(row.doc) as StoredDoc);
      if (!doc || !match(doc)) throw new Error(`no matching record at ${record.where}`);
      change(doc);
      db.prepare(`UPDATE "${table}" SET doc = ? WHERE id = ?`).run(JSON.stringify(doc), Number(id));
    } finally {
      db.close();
    }
    return;
  }
  const dot = record.where.indexOf('.');
  const client = new MongoClient(url);
  try {
    const coll = client.db(record.where.slice(0, dot)).collection(record.where.slice(dot + 1));
    const doc = (await coll.find({}).toArray()).find(match);
    if (!doc) throw new Error(`no matching document in ${record.where}`);
    change(doc);
    await coll.replaceOne({ _id: doc._id }, doc);
  } finally {
    await client.close();
  }
}
