import type http from 'node:http';

/** A public listener that drains before it closes (decisions §50). */
export interface DrainingListener {
  /** True from the moment the stop began until the listener is closed. */
  draining(): boolean;
  /**
   * Begins the stop: the listener stays open, answering `/health` 503 `{"status":"draining"}` so a
   * load balancer sees the difference from a dead one, and serving what still comes with
   * `Connection: close`; once no request but /health is in flight it closes (idle keep-alive
   * connections with it) and resolves when the last connection has ended.
   */
  close(): Promise<void>;
}

/** Tracks `server`'s requests in flight (all but /health) for a drain at stop (issue 40 item 7). */
export function drainingListener(server: http.Server): DrainingListener {
  let active = 0;
  let draining = false;
  let whenIdle: (() => void) | undefined;
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if ((req.url ?? '').split('?')[0] === '/health') return;
    active += 1;
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      active -= 1;
      if (active === 0) whenIdle?.();
    });
  });
  return {
    draining: () => draining,
    close: () =>
      new Promise<void>((resolve) => {
        draining = true;
        const closeNow = () => {
          whenIdle = undefined;
          server.close(() => resolve());
          server.closeIdleConnections();
        };
        if (active === 0) closeNow();
        else whenIdle = closeNow;
      }),
  };
}
