import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import { handleOpsRequest, type BlobStore, type Bus, type HealthState, type Logger } from '@patchbay/platform';
import { authenticate, requireScopes } from './auth/authenticate';
import { CredentialCache } from './auth/credential-cache';
import { formBody, jsonBody } from './http/body';
import { errorHandler, notFound } from './http/errors';
import { observe } from './http/observe';
import { ROUTES } from './routes/route-table';
import { bodyKind } from './http/route-def';
import { forward } from './routes/forward';
import { countUploadBytes } from './upload/upload-metrics';
import { openApiDocument } from './openapi/document';
import { referencePage } from './docs/reference-page';
import { consoleSite } from './console/console-site';
import { idempotencyKeys } from './idempotency/idempotency';
import { version } from '../package.json';
import type { GatewaySettings } from './config';
import { AbortRetries } from './upload/abort-retries';

export interface GatewayDeps {
  bus: Bus;
  blobs: BlobStore;
  logger: Logger;
  metrics: Registry;
  health: HealthState;
  settings: GatewaySettings;
}

/** The public API as an express app (no listen: main.ts and tests do that). */
export function createApp(deps: GatewayDeps): { app: Express; cache: CredentialCache; aborts: AbortRetries } {
  const { bus, logger, metrics, settings } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', settings.trustProxy ?? 'loopback');
  app.use(observe(logger, metrics));
  app.use((req, res, next) => {
    // /health only: /metrics is on the operations port (OPS_PORT), never on the public API.
    void handleOpsRequest(req, res, null, deps.health).then((done) => {
      if (!done) next();
    }, next);
  });

  const cache = new CredentialCache(settings.authCacheMs);
  const api = express.Router({ strict: true, caseSensitive: true });
  const auth = authenticate(bus, cache, settings.busTimeoutMs);
  // A token revoked or a partner changed through this replica is forgotten here as soon as the
  // answer goes out (other replicas hear identity's event: see auth/cache-invalidation.ts).
  const purge: express.RequestHandler = (_req, res, next) => {
    res.on('finish', () => cache.clear());
    next();
  };
  const document = JSON.stringify(
    openApiDocument(ROUTES, { baseUrl: settings.baseUrl, storageUrl: settings.storageUrl, version }),
  );
  const aborts = new AbortRetries(bus, logger.child({ mod: 'upload-aborts' }), settings.busTimeoutMs);
  const streams = {
    bus,
    blobs: countUploadBytes(deps.blobs, metrics),
    logger,
    timeoutMs: settings.busTimeoutMs,
    openapi: () => document,
    aborts,
  };
  // Every route the same way, from the one table: guards, the body as the route reads it (a route
  // that takes no body never parses one), its Idempotency-Key, then its own handler or the plain forward.
  for (const route of ROUTES) {
    const body = bodyKind(route);
    const parsers =
      body === 'json' ? jsonBody(settings.jsonBodyLimit) : body === 'form' ? formBody(settings.jsonBodyLimit) : [];
    const guards = route.auth === false ? [] : [auth, requireScopes(route.scopes)];
    const handler = route.handler
      ? route.handler(streams, route)
      : forward(route, bus, settings.baseUrl, settings.busTimeoutMs);
    // Idempotency-Key on writes: after the body is parsed, or before a streamed body is read (idempotency/).
    const keys = idempotencyKeys(route, { bus, logger, timeoutMs: settings.busTimeoutMs });
    api[route.method](route.path, ...guards, ...(route.purgesCredentials ? [purge] : []), ...parsers, ...keys, handler);
  }
  app.use('/core/v2', api);
  app.use(referencePage({ documentPath: '/core/v2/openapi.json', apiUrls: [settings.baseUrl, settings.storageUrl] }));
  if (settings.consoleDir)
    app.use(consoleSite({ dir: settings.consoleDir, apiUrl: settings.baseUrl, storageUrl: settings.storageUrl }));
  app.use(notFound);
  app.use(errorHandler(logger));
  return { app, cache, aborts };
}
