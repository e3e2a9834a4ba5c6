import http from 'node:http';
import { CircuitBreakerBus, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import { createFileServerApp } from './app';
import { Resolver } from './resolver';

export interface FileServerSettings {
  port: number;
  cacheTtlMs: number;
  busTimeoutMs: number;
  transcodeTimeoutMs: number;
}

/** Starts the public file server; stopping lets in-flight downloads finish. */
export async function startFileServer(deps: Pick<ServiceDeps, 'bus' | 'blobs' | 'logger' | 'metrics'>, settings: FileServerSettings): Promise<Stoppable & { port: number }> {
  let ready = false;
  const log = deps.logger.child({ mod: 'file-server' });
  // While storage or the transcoder (or the whole bus) does not answer, downloads fail fast with a 503.
  const bus = new CircuitBreakerBus(deps.bus, { logger: log });
  const resolver = new Resolver(bus, settings.cacheTtlMs, settings.busTimeoutMs, log);
  await resolver.start();
  const app = createFileServerApp({ ...deps, bus, resolver, transcodeTimeoutMs: settings.transcodeTimeoutMs, health: { ready: () => ready } });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(settings.port, '0.0.0.0', () => resolve()); });
  ready = true;
  const port = (server.address() as { port: number }).port;
  log.info({ port }, 'file server listening');
  return {
    port,
    stop: async () => {
      ready = false;
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeIdleConnections(); });
      await resolver.stop();
    },
  };
}
