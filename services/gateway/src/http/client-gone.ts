import type { Request } from 'express';

/**
 * Whether the request's connection stopped reading before the route was reached: the client hung up
 * (or half-closed) while the request waited, say for authentication or a gateway that was paused.
 * body-parser skips such a request's body — the route would run on an empty body the client never
 * sent — and nothing can be answered on it, so such a request is dropped, never run.
 * (The same test as body-parser's on-finished: a socket no longer readable.)
 */
export function clientGone(req: Request): boolean {
  return req.socket.destroyed || !req.socket.readable;
}
