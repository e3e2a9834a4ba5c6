import http from 'node:http';
import type { Logger } from '../logging/logger';
import type { HttpTimeouts } from '../config/http-server';

const CUT_BODY = (t: HttpTimeouts) =>
  JSON.stringify({
    message: `request body too slow: fewer than ${t.bodyMinBytes} bytes in ${t.bodyMs} ms`,
    errors: [],
  });

/**
 * Options for `http.createServer`: the head must be complete within `headersMs` (Node answers 408
 * and closes), idle keep-alive connections close after `keepAliveMs`, and there is no total request
 * time (requestTimeout 0): bodies are watched by `cutSlowBodies` instead. Node checks the head's
 * deadline every `connectionsCheckingInterval` ms (30 s by default, which would let a slow head
 * live that much longer): here a tenth of the timeout, at most a second.
 */
export function httpServerOptions(t: HttpTimeouts): http.ServerOptions {
  return {
    headersTimeout: t.headersMs,
    requestTimeout: 0,
    keepAliveTimeout: t.keepAliveMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(t.headersMs / 10))),
  };
}

/**
 * Cuts request bodies that stop or trickle: while a request's body is being received, every window
 * of `bodyMs` must bring at least `bodyMinBytes` (counted on the socket), or the client gets a 408
 * (when nothing was answered yet) and the connection is closed; the route reading the body sees it
 * aborted and cleans up as for any client that hung up. A window in which bytes wait unread in the
 * server's buffers is not the client's fault (the server's store is the slow side) and is not
 * counted. A fast upload is never cut, however long it takes.
 */
export function cutSlowBodies(server: http.Server, t: HttpTimeouts, log?: Logger): void {
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (!(length > 0) && req.headers['transfer-encoding'] === undefined) return;
    const socket = req.socket;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (req.complete || socket.destroyed) return stop();
      const got = socket.bytesRead - seen;
      seen = socket.bytesRead;
      if (got >= t.bodyMinBytes || req.readableLength > 0 || socket.readableLength > 0) return;
      stop();
      log?.warn(
        { method: req.method, path: (req.url ?? '').split('?')[0], bytes: got, ms: t.bodyMs },
        'request body too slow: connection closed',
      );
      const close = setTimeout(() => socket.destroy(), 1000);
      close.unref();
      if (res.headersSent) return void socket.destroy();
      res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      res.end(CUT_BODY(t), () => socket.destroy());
    }, t.bodyMs);
    timer.unref();
    const stop = () => clearInterval(timer);
    req.once('end', stop);
    res.once('close', stop);
  });
}
