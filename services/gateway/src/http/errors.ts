import type { ErrorRequestHandler, RequestHandler } from 'express';
import { clientError, type Logger } from '@patchbay/platform';
import { sendError, sendJson } from './respond';

/** Unknown route (any method): 404 JSON. */
export const notFound: RequestHandler = (_req, res) => sendJson(res, 404, { errors: [], message: 'Not Found' });

/**
 * The one error handler, after every route: ApiErrors and the client errors of the HTTP stack
 * (platform's clientError) map to their status and body; anything else is logged with the request ID and becomes a
 * generic 500.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    // A client that hung up mid-request (an aborted upload) is ordinary: nothing to answer, nothing
    // broken. (Not `readableAborted`: that is also true when a route stopped reading a bad body.)
    if (req.socket?.destroyed) {
      logger.info(
        { requestId: req.headers['x-request-id'], method: req.method, path: req.path },
        'client aborted the request',
      );
      res.destroy();
      return;
    }
    const mapped = clientError(err, req);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (mapped) {
      sendError(res, mapped);
      return;
    }
    logger.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error');
    sendJson(res, 500, { errors: [], message: 'internal server error' });
  };
}
