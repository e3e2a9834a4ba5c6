import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import type { Server } from 'node:http';
import { loadConfig } from '../config/load-config';
import { CommonConfig } from '../config/common';
import { createLogger, resolveLogFormat } from '../logging/logger';
import { createMetricsRegistry } from './metrics';
import { serverPort, startOpsServer } from './ops-server';
import { reportReady } from './launcher-ipc';
import { busSizes, openBus, openDocStore, openBlobStore } from './adapters';
import { runProcess, stopAll, type Stoppable } from './service-runner';
import { claimDataDir } from '../data-dir/claim-data-dir';
import { sweepDataDirScratch } from '../scratch/data-dir-scratch';
import type { ServiceDeps } from './service-deps';
import { blobStoreSpans, docStoreSpans } from './store-spans';
import type { DocStore } from '../doc-store/port';
import type { BlobStore } from '../blob-store/port';
import type { Bus } from '../bus/port';
import type { Logger } from '../logging/logger';

export const commonSchema = Type.Object(CommonConfig);
export type CommonConfigValues = Static<typeof commonSchema>;

export interface BootOptions<P extends TProperties> {
  /** Service name: logger name, NATS connection name, its own database and data directory. */
  name: string;
  /** The service's own environment keys, checked together with the common ones. */
  config?: P;
  /** Whether it owns a document store / touches blobs (stateless services own neither). */
  docs?: boolean;
  blobs?: boolean;
  /**
   * How a service that touches blobs opens them (with `blobs`): the blob routing of external
   * containers and BLOB_STORE_URL (@patchbay/blob-routing's openServiceBlobStore). Default: the
   * platform's own store (GridFS or directory).
   */
  openBlobs?: (ctx: { config: CommonConfigValues; bus: Bus; logger: Logger }) => Promise<BlobStore>;
  start(deps: ServiceDeps, config: Readonly<CommonConfigValues & Static<TObject<P>>>): Promise<Stoppable>;
}

/**
 * The `main.ts` of a service in distributed mode: read config once, connect to NATS (required),
 * open its stores, serve /health and /metrics on OPS_PORT, run until SIGTERM.
 */
export function bootService<P extends TProperties>(opts: BootOptions<P>): void {
  // The composed schema is typed loosely on purpose: TypeBox cannot compute the static type of a
  // generic property spread; the result is typed through BootOptions instead.
  const properties: TProperties = { ...CommonConfig, ...(opts.config ?? {}) };
  const schema = Type.Object(properties);
  const early = createLogger({
    name: opts.name,
    level: process.env.LOG_LEVEL || 'info',
    format: resolveLogFormat(process.env.LOG_FORMAT),
  });
  runProcess({
    name: opts.name,
    logger: early,
    // Started by the distributed launcher: stop when it is gone, even if it was killed outright.
    exitWith: Number(process.env.PATCHBAY_LAUNCHER_PID) || undefined,
    start: async () => {
      // why: loadConfig checked every key of the composed schema, CommonConfig's and P's (typed loosely above).
      const config = loadConfig(schema) as Readonly<CommonConfigValues & Static<TObject<P>>>;
      if (!config.NATS_URL)
        throw new Error(
          'NATS_URL is required when a service runs on its own (use `pnpm start` for the all-in-one process)',
        );
      const logger = createLogger({
        name: opts.name,
        level: config.LOG_LEVEL,
        format: resolveLogFormat(config.LOG_FORMAT),
      }).child({ svc: opts.name });
      const metrics = createMetricsRegistry(opts.name);
      const streams = {
        eventsMaxAgeS: config.NATS_EVENTS_MAX_AGE,
        eventsMaxBytes: config.NATS_EVENTS_MAX_BYTES,
        replicas: config.NATS_STREAM_REPLICAS,
      };
      // The embedded stores live under DATA_DIR: private to this user, and the service's own directory
      // locked (a second process of the same service on it exits naming the lock and its holder).
      const usesDataDir = !config.MONGODB_URL && (opts.docs || (opts.blobs && !config.BLOB_STORE_URL));
      const claim = !usesDataDir
        ? undefined
        : claimDataDir({ dataDir: config.DATA_DIR, services: opts.docs ? [opts.name] : [], log: logger });
      // What a transcoder killed mid-job left under this data directory (plaintext included) goes now.
      if (claim) await sweepDataDirScratch(config.DATA_DIR, logger);
      const bus = await openBus({
        natsUrl: config.NATS_URL,
        name: opts.name,
        logger,
        metrics,
        streams,
        ...busSizes(config),
      });
      const where = {
        mongodbUrl: config.MONGODB_URL,
        mongodbDbPrefix: config.MONGODB_DB_PREFIX,
        dataDir: config.DATA_DIR,
      };
      const docs = opts.docs
        ? docStoreSpans(await openDocStore({ ...where, service: opts.name, logger }), where)
        : unusedDocStore(opts.name);
      const blobs = !opts.blobs
        ? unusedBlobStore(opts.name)
        : blobStoreSpans(opts.openBlobs ? await opts.openBlobs({ config, bus, logger }) : await openBlobStore(where));
      let ready = false;
      const service = await opts.start({ bus, docs, blobs, logger, metrics }, config);
      let ops: Server | undefined;
      if (config.OPS_PORT)
        ops = await startOpsServer(
          config.OPS_PORT === 'auto' ? 0 : config.OPS_PORT,
          metrics,
          { ready: () => ready },
          config.HOST,
        );
      ready = true;
      const opsPort = ops ? serverPort(ops) : null;
      logger.info({ nats: config.NATS_URL, ops_port: opsPort }, `${opts.name} started`);
      reportReady(opts.name, opsPort);
      return {
        stop: async () => {
          ready = false;
          await stopAll([
            service,
            { stop: () => bus.close() },
            { stop: () => docs.close() },
            { stop: async () => blobs.close?.() },
            { stop: async () => claim?.release() },
          ]);
          if (ops) await new Promise<void>((r) => ops!.close(() => r()));
        },
      };
    },
  });
}

/** Stands in for a store the service said it does not use: any use is a programming error. */
function unusedDocStore(name: string): DocStore {
  return {
    collection: () => {
      throw new Error(`${name} declared that it owns no document store`);
    },
    close: async () => undefined,
  };
}
function unusedBlobStore(name: string): BlobStore {
  const fail = async (): Promise<never> => {
    throw new Error(`${name} declared that it uses no blob store`);
  };
  return { put: fail, get: fail, stat: fail, delete: fail };
}
