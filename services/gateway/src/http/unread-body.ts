import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * After a refusal answered before the body was read: what the client sends meanwhile is read and
 * dropped, so it can read the answer, but only for `lingerMs` after the answer: a body declared in
 * gigabytes is then not received at all (the connection is closed).
 */
export function dropUnreadBody(req: IncomingMessage, res: ServerResponse, lingerMs = 1000): void {
  req.resume();
  res.once('finish', () => {
    if (req.complete) return;
    setTimeout(() => {
      if (!req.complete) req.socket.destroy();
    }, lingerMs).unref();
  });
}
