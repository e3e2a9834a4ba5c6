import http from 'node:http';
import {
  CircuitBreakerBus,
  DEFAULT_HTTP_TIMEOUTS,
  closeEarlyAnswers,
  cutSlowBodies,
  drainingListener,
  httpServerOptions,
  stopAll,
  type ServiceDeps,
  type Stoppable,
} from '@patchbay/platform';
import { createApp } from './app';
import { invalidateOnIdentityEvents } from './auth/cache-invalidation';
import type { GatewaySettings } from './config';
import { AuthReadiness } from './auth/auth-readiness';

/**
 * Starts the gateway's HTTP server on `port`. Stopping drains the listener (drain-listener.ts): it
 * stays open, /health answering 503 `draining`, until the requests in flight are answered, then closes.
 */
export async function startGateway(
  deps: Pick<ServiceDeps, 'bus' | 'blobs' | 'logger' | 'metrics'>,
  settings: GatewaySettings,
  port: number,
): Promise<Stoppable & { server: http.Server; port: number }> {
  let ready = false;
  const log = deps.logger.child({ mod: 'gateway' });
  // While a service (or the whole bus) does not answer, calls to it fail fast with a 503.
  const bus = new CircuitBreakerBus(deps.bus, { logger: log });
  // /health is 200 only once credentials can work: listening, and identity has its operator partner.
  const auth = new AuthReadiness(deps.bus, log);
  const { app, cache, aborts } = createApp({
    ...deps,
    bus,
    settings,
    health: { ready: () => ready && auth.ready, draining: () => listener.draining() },
  });
  const invalidation = await invalidateOnIdentityEvents(bus, cache, deps.logger.child({ mod: 'auth' }));
  // Uploads and bulk ingest stream large bodies: no limit on a request's total time, but a head that
  // does not arrive, an idle connection and a body that stops or trickles are cut.
  const timeouts = settings.http ?? DEFAULT_HTTP_TIMEOUTS;
  const server = http.createServer(httpServerOptions(timeouts), app);
  cutSlowBodies(server, timeouts, log);
  closeEarlyAnswers(server);
  const listener = drainingListener(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, settings.host ?? '127.0.0.1', () => resolve());
  });
  ready = true;
  auth.start();
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the gateway is not on a TCP port');
  const actual = address.port;
  log.info({ port: actual }, 'gateway listening');
  return {
    server,
    port: actual,
    stop: async () => {
      ready = false;
      auth.stop();
      // Open until the requests in flight are answered, /health saying `draining` meanwhile.
      await listener.close();
      await stopAll([...invalidation, aborts]);
    },
  };
}
