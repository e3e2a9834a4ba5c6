// First: tracing (when OTEL_* asks for it) starts before any module it instruments is loaded.
import '@patchbay/platform/src/runtime/register';
import {
  busSizes,
  ConfigError,
  claimDataDir,
  sweepDataDirScratch,
  createLogger,
  resolveLogFormat,
  createMetricsRegistry,
  loadConfig,
  openBus,
  openDocStore,
  runProcess,
  serverPort,
  startOpsServer,
  stopAll,
  stdoutSink,
  blobStoreSpans,
  docStoreSpans,
  type Stoppable,
} from '@patchbay/platform';
import { MemoryBus, publicFilesUrl } from '@patchbay/platform';
import { openServiceBlobStore } from '@patchbay/blob-routing';
import { gatewaySettings, startGateway } from '@patchbay/gateway';
import { fileServerSettings, startFileServer } from '@patchbay/file-server';
import { AllInOneConfig } from './config';
import { SERVICES } from './services';
import { banner, bootstrapPartner } from './bootstrap';
import { bootstrapPasswordProblem, isDevelopmentHost } from './bootstrap-password';

/**
 * All-in-one: every service in this one process. In-process bus and embedded stores under DATA_DIR
 * unless NATS_URL / MONGODB_URL say otherwise.
 */
const early = createLogger({
  name: 'patchbay',
  level: process.env.LOG_LEVEL || 'info',
  format: resolveLogFormat(process.env.LOG_FORMAT),
});
runProcess({
  name: 'patchbay',
  logger: early,
  start: async (): Promise<Stoppable> => {
    const config = loadConfig(AllInOneConfig);
    const weak = isDevelopmentHost(config.HOST) ? null : bootstrapPasswordProblem(config.PATCHBAY_BOOTSTRAP_PASSWORD);
    if (weak) throw new ConfigError([weak]);
    const logger = createLogger({
      name: 'patchbay',
      level: config.LOG_LEVEL,
      format: resolveLogFormat(config.LOG_FORMAT),
    });
    // With the embedded stores, one process per data directory: the same per-service locks the
    // distributed services take, so this process and any other on the same DATA_DIR refuse to share it.
    const claim = config.MONGODB_URL
      ? undefined
      : claimDataDir({
          dataDir: config.DATA_DIR,
          services: SERVICES.filter((s) => s.docs).map((s) => s.name),
          log: logger,
        });
    // What a transcoder killed mid-job left under this data directory (plaintext included) goes now —
    // with MongoDB too: the scratch is under DATA_DIR whatever holds the documents, and live workers'
    // directories are never touched.
    await sweepDataDirScratch(config.DATA_DIR, logger);
    const metrics = createMetricsRegistry('patchbay');
    // BUS_MAX_PAYLOAD is the in-process bus's max_payload, as a nats-server's is its own.
    const hub = config.NATS_URL ? undefined : MemoryBus.hub({ maxPayload: config.BUS_MAX_PAYLOAD });
    const sizes = busSizes(config);
    const started: Stoppable[] = [];
    const closers: Stoppable[] = [];
    const where = {
      mongodbUrl: config.MONGODB_URL,
      mongodbDbPrefix: config.MONGODB_DB_PREFIX,
      dataDir: config.DATA_DIR,
    };
    // Blob routing asks the storage service (over this bus) where an external container's blobs are.
    const routingBus = await openBus({
      natsUrl: config.NATS_URL,
      hub,
      name: 'blob-routing',
      logger,
      metrics,
      ...sizes,
    });
    const blobs = blobStoreSpans(
      await openServiceBlobStore({
        config,
        bus: routingBus,
        logger: logger.child({ mod: 'blob-routing' }),
      }),
    );
    closers.push({ stop: async () => blobs.close?.() }, { stop: () => routingBus.close() });
    for (const entry of SERVICES) {
      const bus = await openBus({ natsUrl: config.NATS_URL, hub, name: entry.name, logger, metrics, ...sizes });
      const docs = docStoreSpans(
        await openDocStore({ ...where, service: entry.name, logger: logger.child({ svc: entry.name }) }),
        where,
      );
      closers.push({ stop: () => bus.close() }, { stop: () => docs.close() });
      started.push(await entry.start({ bus, docs, blobs, logger: logger.child({ svc: entry.name }), metrics }, config));
    }
    const gatewayBus = await openBus({ natsUrl: config.NATS_URL, hub, name: 'gateway', logger, metrics, ...sizes });
    closers.push({ stop: () => gatewayBus.close() });
    const settings = gatewaySettings(config);
    const baseUrl = settings.baseUrl;
    const storageUrl = publicFilesUrl(config);
    const gateway = await startGateway(
      { bus: gatewayBus, blobs, logger: logger.child({ svc: 'gateway' }), metrics },
      settings,
      config.PORT,
    );
    const fileServerBus = await openBus({
      natsUrl: config.NATS_URL,
      hub,
      name: 'file-server',
      logger,
      metrics,
      ...sizes,
    });
    closers.push({ stop: () => fileServerBus.close() });
    const fileServer = await startFileServer(
      { bus: fileServerBus, blobs, logger: logger.child({ svc: 'file-server' }), metrics },
      fileServerSettings(config),
    );
    const result = await bootstrapPartner(gatewayBus, {
      login: config.PATCHBAY_BOOTSTRAP_LOGIN,
      password: config.PATCHBAY_BOOTSTRAP_PASSWORD,
      token: config.PATCHBAY_BOOTSTRAP_TOKEN,
    });
    // /health and /metrics of the whole process on the operations port (OPS_PORT; off by default): metrics
    // are never served on the public ports.
    let ready = true;
    const ops = config.OPS_PORT
      ? await startOpsServer(
          config.OPS_PORT === 'auto' ? 0 : config.OPS_PORT,
          metrics,
          { ready: () => ready },
          config.HOST,
        )
      : undefined;
    const closeOps = { stop: () => new Promise<void>((r) => (ops ? ops.close(() => r()) : r())) };
    stdoutSink().write(`${banner(result, baseUrl, storageUrl)}\n`);
    logger.info(
      { port: gateway.port, base_url: baseUrl, storage_url: storageUrl, ops_port: ops ? serverPort(ops) : null },
      'patchbay ready',
    );
    // Stop order: the public listener first, then services (finishing in-flight work), then buses and
    // stores, and the data directory's locks last.
    const release = { stop: async () => claim?.release() };
    return {
      stop: () => {
        ready = false;
        // The two public listeners drain together (each answers /health `draining` meanwhile).
        const listeners = {
          stop: () => Promise.all([stopAll([gateway]), stopAll([fileServer])]).then(() => undefined),
        };
        return stopAll([listeners, ...started.reverse(), ...closers, closeOps, release]);
      },
    };
  },
});
