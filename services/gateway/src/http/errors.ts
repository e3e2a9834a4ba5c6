import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '@patchbay/contracts';
import type { Logger } from '@patchbay/platform';
import { sendJson } from './respond';

/** Unknown route (any method): 404 JSON. */
export const notFound: RequestHandler = (_req, res) => sendJson(res, 404, { errors: [], message: 'Not Found' });

/** Body-parser failures, typed by their `type` (set by the `body-parser` package). */
function fromBodyParser(err: { type?: string; status?: number }): ApiError | undefined {
  switch (err.type) {
    case 'entity.parse.failed': return new BadRequestError('No JSON object could be decoded');
    case 'entity.too.large': return new PayloadTooLargeError();
    case 'encoding.unsupported':
    case 'charset.unsupported': return new UnsupportedMediaTypeError();
    case 'request.aborted': return new BadRequestError('request aborted');
    default: return undefined;
  }
}

/**
 * The one error handler, after every route: ApiErrors map to their status and body; anything
 * else is logged with the request ID and becomes a generic 500.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const mapped = err instanceof ApiError ? err : fromBodyParser(err as { type?: string });
    if (res.headersSent) { res.destroy(); return; }
    if (mapped) { sendJson(res, mapped.status, mapped.toBody()); return; }
    logger.error({ err, requestId: req.headers['x-request-id'], path: req.path }, 'unhandled error');
    sendJson(res, 500, { errors: [], message: 'internal server error' });
  };
}
