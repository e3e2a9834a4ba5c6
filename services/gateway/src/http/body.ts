import express, { type RequestHandler } from 'express';
import { UnsupportedMediaTypeError, assertJsonDepth } from '@patchbay/contracts';

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** No body → `{}`; a body nested deeper than MAX_JSON_DEPTH → 400 before anything handles it. */
const settled: RequestHandler = (req, _res, next) => {
  if (req.body === undefined) req.body = {};
  assertJsonDepth(req.body);
  next();
};

/**
 * JSON routes: a JSON body (invalid → 400, too large → 413, too deep → 400, not what its
 * Content-Encoding says → 400); a non-empty body of another type → 415; no body → `{}`.
 */
export function jsonBody(limit: number): RequestHandler[] {
  return [
    (req, _res, next) => {
      if (hasBody(req) && !req.is('application/json') && !req.is('application/*+json'))
        return next(new UnsupportedMediaTypeError('Content-Type must be application/json'));
      next();
    },
    express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] }),
    settled,
  ];
}

/** /oauth routes: form-encoded (or JSON) bodies. */
export function formBody(limit: number): RequestHandler[] {
  return [
    (req, _res, next) => {
      if (hasBody(req) && !req.is('application/x-www-form-urlencoded') && !req.is('application/json'))
        return next(new UnsupportedMediaTypeError('Content-Type must be application/x-www-form-urlencoded'));
      next();
    },
    express.urlencoded({ extended: false, limit }),
    express.json({ limit, strict: true }),
    settled,
  ];
}
