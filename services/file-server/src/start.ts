import { fileSidOfBlobKey } from '@patchbay/contracts';
import {
  CircuitBreakerBus,
  ConfigError,
  DEFAULT_HTTP_TIMEOUTS,
  DirBlobStore,
  closeEarlyAnswers,
  cutSlowBodies,
  drainingListener,
  httpServerOptions,
  type HttpTimeouts,
  type ServiceDeps,
  type Stoppable,
} from '@patchbay/platform';
import { SelfTracedServer } from '@patchbay/platform/src/tracing/server-span';
import { RoutedBlobStore } from '@patchbay/blob-routing';
import { createFileServerApp } from './app';
import { CopyMaker } from './copy-maker';
import { Resolver } from './resolver';

export interface FileServerSettings {
  port: number;
  /** The address it listens on (HOST; default 127.0.0.1). */
  host?: string;
  cacheTtlMs: number;
  busTimeoutMs: number;
  transcodeTimeoutMs: number;
  /**
   * How long a blob read for a small reply (a range) stays open for the next one (ms; 0: never).
   * File events close it at once, as they drop the resolved file. Default 2000.
   */
  keepOpenMs?: number;
  /** FILE_SERVER_ACCEL_REDIRECT: nginx's internal location for the directory blob store; only with that store. */
  accelRedirect?: string;
  /** Slow clients (HTTP_*_TIMEOUT_MS, HTTP_BODY_MIN_BYTES); default DEFAULT_HTTP_TIMEOUTS. */
  http?: HttpTimeouts;
}

/** Starts the public file server; stopping lets in-flight downloads finish. */
export async function startFileServer(
  deps: Pick<ServiceDeps, 'bus' | 'blobs' | 'logger' | 'metrics'>,
  settings: FileServerSettings,
): Promise<Stoppable & { port: number }> {
  // Blob routing wraps Patchbay's own store: what nginx would read is the store under it.
  const own = deps.blobs instanceof RoutedBlobStore ? deps.blobs.platform : deps.blobs;
  if (settings.accelRedirect && !(own instanceof DirBlobStore)) {
    throw new ConfigError([
      'FILE_SERVER_ACCEL_REDIRECT: only with the directory blob store (nginx ' +
        'reads its files); unset it with MONGODB_URL',
    ]);
  }
  let ready = false;
  const log = deps.logger.child({ mod: 'file-server' });
  // While storage or the transcoder (or the whole bus) does not answer, downloads fail fast with a 503.
  const bus = new CircuitBreakerBus(deps.bus, { logger: log });
  // A file event closes every blob of that file kept open (its data, its transcodings, its cached copies).
  const resolver = new Resolver(bus, settings.cacheTtlMs, settings.busTimeoutMs, log, (fileSid) =>
    deps.blobs.forgetOpen?.((key) => fileSidOfBlobKey(key) === fileSid),
  );
  await resolver.start();
  const app = createFileServerApp({
    ...deps,
    bus,
    resolver,
    copies: new CopyMaker({ bus, transcodeTimeoutMs: settings.transcodeTimeoutMs, log }),
    keepOpenMs: settings.keepOpenMs ?? 2000,
    accelPrefix: settings.accelRedirect,
    health: { ready: () => ready, draining: () => listener.draining() },
  });
  const timeouts = settings.http ?? DEFAULT_HTTP_TIMEOUTS;
  // Its requests get the file server's own lean span (app.ts), not the HTTP instrumentation's.
  const server = new SelfTracedServer(httpServerOptions(timeouts), app);
  cutSlowBodies(server, timeouts, log);
  closeEarlyAnswers(server);
  const listener = drainingListener(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host ?? '127.0.0.1', () => resolve());
  });
  ready = true;
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the file server is not on a TCP port');
  const port = address.port;
  log.info({ port }, 'file server listening');
  return {
    port,
    stop: async () => {
      ready = false;
      // Open until the downloads in flight are done, /health saying `draining` meanwhile.
      await listener.close();
      await resolver.stop();
    },
  };
}
