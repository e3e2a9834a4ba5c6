import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import type { Registry } from 'prom-client';
import { Counter, Histogram } from 'prom-client';
import { clientError, handleOpsRequest, type HealthState, type Logger } from '@patchbay/platform';
import { inServerSpan } from '@patchbay/platform/src/tracing/server-span';
import { ACTIVE_CONTENT_HEADERS } from './domain/active-content';
import { PREFLIGHT_HEADERS } from './domain/cors';
import { serveFile, type ServeDeps } from './serve-file';

/** The route of a file, as its spans name it (`http.route`). */
const FILE_ROUTE = '/f/:id';
const NOT_FOUND = JSON.stringify({ errors: [], message: 'Not Found' });

function sendJson(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  for (const [name, value] of Object.entries(ACTIVE_CONTENT_HEADERS)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * The id of `/f/<id>` (one segment, a trailing slash allowed, `/f/` in any case: what express's
 * `/f/:id` matched), percent-decoded (URIError when it is not UTF-8: a 400); undefined for any
 * other path.
 */
export function fileId(pathname: string): string | undefined {
  if (pathname.length < 4 || pathname[0] !== '/' || (pathname[1] !== 'f' && pathname[1] !== 'F') || pathname[2] !== '/')
    return undefined;
  const rest = pathname.endsWith('/') ? pathname.slice(3, -1) : pathname.slice(3);
  if (rest.length === 0 || rest.includes('/')) return undefined;
  return decodeURIComponent(rest);
}

/**
 * The public file server: `/f/<id>` only (plus /health); no Authorization. Anything
 * not served — unpublished, unknown, wrong form, another path — is the same 404 error body, so a
 * response never tells whether a file exists. A plain request listener: one route needs no router
 * (express's routing was about a tenth of a range reply's CPU; decisions §32).
 */
export function createFileServerApp(
  deps: ServeDeps & { logger: Logger; metrics: Registry; health: HealthState },
): RequestListener {
  const served = new Counter({
    name: 'file_server_responses_total',
    help: 'Public file responses by status',
    labelNames: ['status'],
    registers: [deps.metrics],
  });
  const bytes = new Counter({
    name: 'file_server_bytes_total',
    help: 'Bytes promised in Content-Length',
    registers: [deps.metrics],
  });
  const latency = new Histogram({
    name: 'file_server_first_byte_seconds',
    help: 'Time to headers',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [deps.metrics],
  });
  const serve = serveFile(deps);

  const fail = (err: unknown, req: IncomingMessage, res: ServerResponse): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const mapped = clientError(err, req);
    if (mapped) {
      // Every "no such published file" looks the same, whatever the reason.
      if (mapped.status === 404) return sendJson(res, 404, NOT_FOUND);
      if (mapped.retryAfterSeconds) res.setHeader('Retry-After', String(mapped.retryAfterSeconds));
      return sendJson(res, mapped.status, JSON.stringify(mapped.toBody()));
    }
    deps.logger.error({ err, path: (req.url ?? '').split('?')[0] }, 'file server error');
    sendJson(res, 500, JSON.stringify({ errors: [], message: 'internal server error' }));
  };

  /** One request, inside its span (`id`: the file of `/f/<id>`, or a URIError to answer with a 400). */
  const handle = (req: IncomingMessage, res: ServerResponse, id: string | URIError | undefined, query: string) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      served.inc({ status: String(res.statusCode) });
      latency.observe(Number(process.hrtime.bigint() - start) / 1e9);
    });
    if (id instanceof URIError) {
      fail(id, req, res);
      return;
    }
    if (id !== undefined && req.method === 'OPTIONS') {
      res.writeHead(204, { ...PREFLIGHT_HEADERS, ...ACTIVE_CONTENT_HEADERS });
      res.end();
      return;
    }
    if (id !== undefined && (req.method === 'GET' || req.method === 'HEAD')) {
      serve(req, res, id, query ? querystring.parse(query) : {}).then(
        (promised) => bytes.inc(promised),
        (err: unknown) => fail(err, req, res),
      );
      return;
    }
    // /health only: /metrics is on the operations port (OPS_PORT), never on the public port.
    handleOpsRequest(req, res, null, deps.health).then(
      (done) => {
        if (!done) sendJson(res, 404, NOT_FOUND);
      },
      (err: unknown) => fail(err, req, res),
    );
  };

  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    let id: string | URIError | undefined;
    try {
      id = fileId(path);
    } catch (err) {
      id = err instanceof URIError ? err : new URIError(String(err));
    }
    // A probe gets no span (as on every other port); every other request one lean span (the HTTP
    // instrumentation leaves this server alone: start.ts).
    if (path === '/health') handle(req, res, id, query);
    else inServerSpan(req, res, id === undefined ? undefined : FILE_ROUTE, () => handle(req, res, id, query));
  };
}
