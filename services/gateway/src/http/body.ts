import express, { type RequestHandler } from 'express';
import { PayloadTooLargeError, UnsupportedMediaTypeError, assertJsonDepth } from '@patchbay/contracts';
import { clientGone } from './client-gone';
import { contentCoding } from './content-encoding';

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A body whose Content-Length already exceeds the limit is a 413 before a byte of it is read
 * (body-parser would read it all first, so a slow sender held the request until the body timeout).
 * The answer closes the connection after a short drain (platform's closeEarlyAnswers). A compressed
 * body is judged by its decoded bytes as they are read, as before: its declared length is not its size.
 */
function refuseDeclaredOverLimit(limit: number): RequestHandler {
  return (req, _res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isSafeInteger(declared) && declared > limit && !contentCoding(req))
      return next(
        new PayloadTooLargeError({
          message: `request entity too large (Content-Length ${declared}, at most ${limit})`,
        }),
      );
    next();
  };
}

/**
 * A request with a body whose client is gone before the body is read is dropped (client-gone.ts):
 * body-parser would leave it empty and the route would run a write the client never sent.
 */
const unlessClientGone: RequestHandler = (req, res, next) => {
  if (hasBody(req) && clientGone(req)) {
    res.destroy();
    return;
  }
  next();
};

/** No body → `{}`; a body nested deeper than MAX_JSON_DEPTH → 400 before anything handles it. */
const settled: RequestHandler = (req, _res, next) => {
  if (req.body === undefined) req.body = {};
  assertJsonDepth(req.body);
  next();
};

/**
 * JSON routes: a JSON body (invalid → 400, too large → 413 — before reading when declared so —, too deep
 * → 400, not what its Content-Encoding says → 400); a non-empty body of another type → 415; no body → `{}`.
 */
export function jsonBody(limit: number): RequestHandler[] {
  return [
    (req, _res, next) => {
      if (hasBody(req) && !req.is('application/json') && !req.is('application/*+json'))
        return next(new UnsupportedMediaTypeError({ message: 'Content-Type must be application/json' }));
      next();
    },
    refuseDeclaredOverLimit(limit),
    unlessClientGone,
    express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] }),
    settled,
  ];
}

/** /oauth routes: form-encoded (or JSON) bodies. */
export function formBody(limit: number): RequestHandler[] {
  return [
    (req, _res, next) => {
      if (hasBody(req) && !req.is('application/x-www-form-urlencoded') && !req.is('application/json'))
        return next(
          new UnsupportedMediaTypeError({ message: 'Content-Type must be application/x-www-form-urlencoded' }),
        );
      next();
    },
    refuseDeclaredOverLimit(limit),
    unlessClientGone,
    express.urlencoded({ extended: false, limit }),
    express.json({ limit, strict: true }),
    settled,
  ];
}
