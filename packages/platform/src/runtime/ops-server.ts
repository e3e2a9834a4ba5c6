import http from 'node:http';
import type { Registry } from 'prom-client';

export interface HealthState {
  /** False until the service is wired, and again once it starts shutting down. */
  ready(): boolean;
  /** True while a graceful stop drains the public listener: /health answers 503 `draining`. */
  draining?(): boolean;
}

/**
 * Handles `/health` (200 when ready, 503 otherwise) and, with `registry`, `/metrics` (Prometheus
 * text). Returns false for any other path so an express app or the ops server can fall through. The
 * public ports (the API, the file server) pass no registry: metrics are served on the operations port
 * only (OPS_PORT), which is not meant to be reachable from outside (docs/security.md "Metrics").
 */
export async function handleOpsRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  registry: Registry | null,
  health: HealthState,
): Promise<boolean> {
  const path = (req.url ?? '').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (path === '/health') {
    const draining = health.draining?.() === true;
    const ready = !draining && health.ready();
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: draining ? 'draining' : ready ? 'ok' : 'unavailable' }));
    return true;
  }
  if (path === '/metrics' && registry) {
    const text = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType });
    res.end(text);
    return true;
  }
  return false;
}

/** A small server with only /health and /metrics, for services that have no public HTTP port. */
export async function startOpsServer(
  port: number,
  registry: Registry,
  health: HealthState,
  host = '127.0.0.1',
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    handleOpsRequest(req, res, registry, health)
      .then((handled) => {
        if (!handled) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"errors":[],"message":"Not Found"}');
        }
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`the /health and /metrics server cannot listen on port ${port}: ${err.code ?? err.message}`)),
    );
    server.listen(port, host, resolve);
  });
  return server;
}

export function serverPort(server: http.Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server does not listen on a TCP port');
  return address.port;
}
