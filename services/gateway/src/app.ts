import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import { handleOpsRequest, type BlobStore, type Bus, type HealthState, type Logger } from '@patchbay/platform';
import { authenticate, requireScopes } from './auth/authenticate';
import { CredentialCache } from './auth/credential-cache';
import { formBody, jsonBody } from './http/body';
import { errorHandler, notFound } from './http/errors';
import { observe } from './http/observe';
import { ROUTES } from './routes/route-table';
import { bodyKind } from './routes/route-def';
import { forward } from './routes/forward';
import { mountUploadRoutes } from './upload/upload-routes';
import { mountDownloadRoute } from './upload/download-route';
import { mountIngestRoutes } from './routes/ingest-routes';
import { countUploadBytes } from './upload/upload-metrics';
import type { GatewaySettings } from './config';

export interface GatewayDeps {
  bus: Bus;
  blobs: BlobStore;
  logger: Logger;
  metrics: Registry;
  health: HealthState;
  settings: GatewaySettings;
}

/** The public API as an express app (no listen: main.ts and tests do that). */
export function createApp(deps: GatewayDeps): { app: Express; cache: CredentialCache } {
  const { bus, logger, metrics, settings } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', settings.trustProxy ?? 'loopback');
  app.use(observe(logger, metrics));
  app.use((req, res, next) => { void handleOpsRequest(req, res, metrics, deps.health).then((done) => { if (!done) next(); }, next); });

  const cache = new CredentialCache(settings.authCacheMs);
  const api = express.Router({ strict: true, caseSensitive: true });
  const auth = authenticate(bus, cache, settings.busTimeoutMs);
  // A token revoked or a partner changed through this replica is forgotten here as soon as the
  // answer goes out (other replicas hear identity's event: see auth/cache-invalidation.ts).
  api.use((req, res, next) => {
    if (req.method !== 'GET' && /^\/(oauth\/revoke|oauth\/tokens\/|partners\/)/.test(req.path)) res.on('finish', () => cache.clear());
    next();
  });
  const streams = { bus, blobs: countUploadBytes(deps.blobs, metrics), logger, timeoutMs: settings.busTimeoutMs };
  mountUploadRoutes(api, streams, auth);
  mountDownloadRoute(api, streams, auth);
  mountIngestRoutes(api, streams, auth);
  for (const route of ROUTES) {
    const body = bodyKind(route);
    // A route that takes no body never parses one (a GET with a body is not read at all).
    const parsers = body === 'json' ? jsonBody(settings.jsonBodyLimit) : body === 'form' ? formBody(settings.jsonBodyLimit) : [];
    const guards = route.auth === false ? [] : [auth, requireScopes(route.scopes)];
    api[route.method](route.path, ...guards, ...parsers, forward(route, bus, settings.baseUrl, settings.busTimeoutMs));
  }
  app.use('/core/v2', api);
  app.use(notFound);
  app.use(errorHandler(logger));
  return { app, cache };
}
