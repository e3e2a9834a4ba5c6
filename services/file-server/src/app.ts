import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Registry } from 'prom-client';
import { Counter, Histogram } from 'prom-client';
import { clientError, handleOpsRequest, type HealthState, type Logger } from '@patchbay/platform';
import { serveFile, type ServeDeps } from './serve-file';

const send = (res: express.Response, status: number, body: unknown) => res.status(status).type('application/json').send(JSON.stringify(body));

/**
 * The public file server: `/f/<id>` only (plus /health and /metrics); no Authorization. Anything
 * not served — unpublished, unknown, wrong form, another path — is the same 404 error body, so a
 * response never tells whether a file exists.
 */
export function createFileServerApp(deps: ServeDeps & { logger: Logger; metrics: Registry; health: HealthState }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const served = new Counter({ name: 'file_server_responses_total', help: 'Public file responses by status', labelNames: ['status'], registers: [deps.metrics] });
  const bytes = new Counter({ name: 'file_server_bytes_total', help: 'Bytes promised in Content-Length', registers: [deps.metrics] });
  const latency = new Histogram({ name: 'file_server_first_byte_seconds', help: 'Time to headers', buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30], registers: [deps.metrics] });
  app.use((req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      served.inc({ status: String(res.statusCode) });
      const len = Number(res.getHeader('content-length') ?? 0);
      if (req.method === 'GET' && res.statusCode < 300) bytes.inc(len);
      latency.observe(Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  });
  app.use((req, res, next) => { void handleOpsRequest(req, res, deps.metrics, deps.health).then((done) => { if (!done) next(); }, next); });
  const handler = serveFile(deps);
  app.get('/f/:id', handler);
  app.head('/f/:id', handler);
  app.use((_req, res) => send(res, 404, { errors: [], message: 'Not Found' }));
  const onError: ErrorRequestHandler = (err: unknown, req, res, _next) => {
    if (res.headersSent) { res.destroy(); return; }
    const mapped = clientError(err, req);
    if (mapped) {
      // Every "no such published file" looks the same, whatever the reason.
      if (mapped.status === 404) return send(res, 404, { errors: [], message: 'Not Found' });
      if (mapped.retryAfterSeconds) res.setHeader('Retry-After', String(mapped.retryAfterSeconds));
      return send(res, mapped.status, mapped.toBody());
    }
    deps.logger.error({ err, path: req.path }, 'file server error');
    send(res, 500, { errors: [], message: 'internal server error' });
  };
  app.use(onError);
  return app;
}
