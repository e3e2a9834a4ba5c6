import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Bus } from '../bus/port';
import type { DocStore } from '../doc-store/port';
import type { BlobStore } from '../blob-store/port';
import { MemoryBus, type MemoryHub } from '../bus/memory-bus';
import { NatsBus } from '../bus/nats-bus';
import type { StreamLimits } from '../bus/nats-streams';
import { InstrumentedBus } from '../bus/instrumented-bus';
import { SqliteDocStore } from '../doc-store/sqlite-doc-store';
import { migrateNedb } from '../doc-store/nedb-migration';
import { sqliteFile } from '../doc-store/nedb-migration-plan';
import { DirBlobStore } from '../blob-store/dir-blob-store';

// The MongoDB adapters are loaded only when MONGODB_URL is set: the driver alone costs every
// process about a quarter of a second of start-up on the embedded store, which never uses it.
const mongoDocStore = async () => (await import('../doc-store/mongo-doc-store')).MongoDocStore;
const gridfsBlobStore = async () => (await import('../blob-store/gridfs-blob-store')).GridfsBlobStore;

/**
 * Picks the bus adapter: NATS when a URL is configured, else the in-process hub. With `metrics`,
 * the bus is wrapped in an InstrumentedBus (per-subject metrics, request ID carried on).
 */
export interface OpenBusOptions {
  natsUrl?: string;
  /** The in-process medium (all-in-one); its max_payload is set where it is made (BUS_MAX_PAYLOAD). */
  hub?: MemoryHub;
  name: string;
  logger: Logger;
  metrics?: Registry;
  streams?: StreamLimits;
  /** BUS_MAX_PAYLOAD, over NATS (0 or unset: the server's max_payload alone). */
  maxPayload?: number;
  /** BUS_MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** BUS_CHUNKED_BYTES. */
  chunkedBytes?: number;
}

export async function openBus(opts: OpenBusOptions): Promise<Bus> {
  const bus = await openRawBus(opts);
  return opts.metrics ? new InstrumentedBus(bus, opts.metrics) : bus;
}

async function openRawBus(opts: OpenBusOptions): Promise<Bus> {
  const { logger, maxMessageBytes, chunkedBytes } = opts;
  if (opts.natsUrl)
    return NatsBus.connect({
      url: opts.natsUrl,
      name: opts.name,
      logger,
      streams: opts.streams,
      maxPayload: opts.maxPayload || undefined,
      maxMessageBytes,
      chunkedBytes,
    });
  if (!opts.hub)
    throw new Error(
      'NATS_URL is not set and no in-process hub was given: only the all-in-one process can run without NATS',
    );
  return new MemoryBus(opts.hub, { logger, maxMessageBytes, chunkedBytes });
}

/** openBus's size options from the common settings. */
export function busSizes(config: {
  BUS_MAX_PAYLOAD: number;
  BUS_MAX_MESSAGE_BYTES: number;
  BUS_CHUNKED_BYTES: number;
}): {
  maxPayload: number;
  maxMessageBytes: number;
  chunkedBytes: number;
} {
  return {
    maxPayload: config.BUS_MAX_PAYLOAD,
    maxMessageBytes: config.BUS_MAX_MESSAGE_BYTES,
    chunkedBytes: config.BUS_CHUNKED_BYTES,
  };
}

/** Where the stores live: MongoDB when `mongodbUrl` is set, else files under `dataDir`. */
export interface StoreLocation {
  mongodbUrl?: string;
  /** First part of the MongoDB database names (MONGODB_DB_PREFIX); default `patchbay`. */
  mongodbDbPrefix?: string;
  dataDir: string;
  /** Memory for the directory store's block cache (DirBlobStoreOptions.blockCacheBytes). */
  blockCacheBytes?: number;
}

/**
 * Picks the document store: MongoDB when a URL is configured (database `<prefix>_<service>`, so
 * each service owns its own database), else the SQLite file `<dataDir>/<service>/store.sqlite`.
 * On the first start over a directory the NeDB store wrote, its datafiles are migrated first
 * (nedb-migration.ts), and what moved is logged.
 */
export async function openDocStore(opts: StoreLocation & { service: string; logger?: Logger }): Promise<DocStore> {
  if (opts.mongodbUrl)
    return (await mongoDocStore()).connect({ url: opts.mongodbUrl, dbName: mongoDbName(opts, opts.service) });
  const dir = path.resolve(opts.dataDir, opts.service);
  const file = sqliteFile(opts.dataDir, opts.service);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const report = await migrateNedb(dir, file);
  if (report) {
    const documents = report.collections.reduce((n, c) => n + c.documents, 0);
    opts.logger?.info(
      { service: opts.service, file, collections: report.collections, outcome: report.outcome },
      `document store: ${documents} documents in ${report.collections.length} collections moved from NeDB to SQLite; ` +
        `the NeDB files are kept in ${path.join(dir, 'nedb-migrated')} until you remove them`,
    );
  }
  return new SqliteDocStore({ file });
}

/** Picks the blob store: GridFS (database `<prefix>_blobs`) next to MongoDB when configured, else `<dataDir>/blobs`. */
export async function openBlobStore(opts: StoreLocation): Promise<BlobStore> {
  if (opts.mongodbUrl) {
    const mongo = await (await mongoDocStore()).connect({ url: opts.mongodbUrl, dbName: mongoDbName(opts, 'blobs') });
    const store = new (await gridfsBlobStore())({ db: mongo.db });
    // The store does not own the connection; close both together.
    const closeStore = store.close?.bind(store);
    store.close = async () => {
      await closeStore?.();
      await mongo.close();
    };
    return store;
  }
  return new DirBlobStore({ dir: path.resolve(opts.dataDir, 'blobs'), blockCacheBytes: opts.blockCacheBytes });
}

/** `<prefix>_<part>`, dashes made underscores: `patchbay_threshold_worker`. */
export function mongoDbName(opts: Pick<StoreLocation, 'mongodbDbPrefix'>, part: string): string {
  return `${opts.mongodbDbPrefix ?? 'patchbay'}_${part.replace(/-/g, '_')}`;
}
