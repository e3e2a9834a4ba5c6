import type { ErrorRequestHandler, RequestHandler } from 'express';
import { clientError, type Logger } from '@patchbay/platform';
import { sendJson } from './respond';

/** Unknown route (any method): 404 JSON. */
export const notFound: RequestHandler = (_req, res) => sendJson(res, 404, { errors: [], message: 'Not Found' });

/**
 * The one error handler, after every route: ApiErrors and the client errors of the HTTP stack
 * (platform's clientError) map to their status and body; anything else is logged with the request ID and becomes a generic 500.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const mapped = clientError(err, req);
    if (res.headersSent) { res.destroy(); return; }
    if (mapped) { sendJson(res, mapped.status, mapped.toBody()); return; }
    logger.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error');
    sendJson(res, 500, { errors: [], message: 'internal server error' });
  };
}
