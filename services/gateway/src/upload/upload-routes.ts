import { isJsonObject } from '@patchbay/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import {
  ApiError,
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  type Principal,
} from '@patchbay/contracts';
import { sendReply } from '../http/respond';
import { contentCoding } from '../http/content-encoding';
import type { StreamDeps } from '../http/route-def';
import { blobStorageEngine, parseFileObject, streamedPart, type StreamedPart } from './multer-engine';
import { abortUpload, commitUpload, prepareUpload, streamedUpload } from './upload-flow';
import { dropUnreadBody } from '../http/unread-body';
import { multipartBoundary } from '../http/multipart-boundary';
import { PartHeaderNormalizer } from './part-headers';
import { callerOf } from '../auth/caller';
import { runningKeyOf } from '../idempotency/running-key';

/** What busboy (multer's parser) says of a body that is not well-formed multipart. */
const MALFORMED_MULTIPART = new RegExp(
  '^(Multipart: Boundary not found|Unexpected end of (form|file)|' +
    'Malformed (part header|content type)|Missing Content-Type)$',
);

/**
 * Multer's own errors (too many parts, a field too large) as 400/413 naming the part, and a body
 * that is not well-formed multipart as 400; anything else (the store, the bus) stays what it is.
 */
function multerError(err: unknown): unknown {
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FIELD_VALUE' || err.code === 'LIMIT_FIELD_KEY')
      return new PayloadTooLargeError({ message: `form field ${err.field ?? ''} is too large` });
    if (err.code === 'LIMIT_UNEXPECTED_FILE')
      return BadRequestError.field(err.field ?? 'data', 'the only file part accepted is data');
    return BadRequestError.field(err.field ?? 'data', err.message);
  }
  if (!(err instanceof ApiError) && err instanceof Error && MALFORMED_MULTIPART.test(err.message)) {
    return BadRequestError.field('data', `the multipart body is malformed: ${err.message}`);
  }
  return err;
}

/**
 * Feeds busboy the body with each part's headers as the upload reads them (part-headers.ts). When
 * multer stops reading (an error), it unpipes busboy from the request: the normalizer is unpiped
 * from busboy then, and drains, so the request still ends.
 */
function normalizedParts(req: Request, busboy: NodeJS.WritableStream): void {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (!boundary) {
    req.pipe(busboy);
    return;
  }
  const normalizer = new PartHeaderNormalizer(boundary);
  const unpipe = req.unpipe.bind(req);
  req.unpipe = (dest?: NodeJS.WritableStream) => {
    if (dest === busboy) {
      normalizer.unpipe(busboy);
      normalizer.resume();
    }
    return unpipe(dest);
  };
  req.pipe(normalizer).pipe(busboy);
}

/**
 * Prepares a part whose bytes came before `file_object` (now read), then commits; a refusal at
 * either step removes the bytes and the pending upload.
 */
async function completeMultipart(
  deps: StreamDeps,
  req: Request,
  principal: Principal,
  part: StreamedPart,
  requestId: string,
) {
  try {
    if (part.deferred) {
      const body: unknown = req.body;
      const fields = parseFileObject(isJsonObject(body) ? body.file_object : undefined);
      await prepareUpload(deps, principal, fields, 'json', requestId, {
        reserved: { file_sid: part.file_sid, size: part.size },
        idempotency_key: runningKeyOf(req.res)?.key,
      });
    }
  } catch (err) {
    await abortUpload(deps, principal, part.file_sid, requestId);
    throw err;
  }
  const idempotency = await runningKeyOf(req.res)?.uploadIdempotency();
  return commitUpload(deps, principal, part.file_sid, part, requestId, idempotency);
}

/**
 * `POST /storage/files`: multipart (`file_object` JSON and `data`, in either order) or `application/octet-stream`
 * (File fields in the query); anything else 415. The body streams into the blob store; storage
 * prepares before and commits after, so a refused upload leaves no byte and no record.
 */
export function uploadRoute(deps: StreamDeps): RequestHandler {
  // streamHandler is multer 2.5's (not yet in @types/multer 2.3): the options are typed with it.
  const options: multer.Options & { streamHandler: typeof normalizedParts } = {
    storage: blobStorageEngine(deps),
    limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 21, headerPairs: 200 },
    streamHandler: normalizedParts,
  };
  const multipart = multer(options).single('data');
  return async (req: Request, res: Response, next: NextFunction) => {
    const principal = callerOf(res);
    const requestId = String(req.headers['x-request-id'] ?? '');
    res.setHeader('Connection', 'close');
    if (req.is('multipart/form-data')) {
      // multer reads the request itself: a compressed multipart body cannot be decoded on the way.
      if (contentCoding(req)) {
        req.resume();
        throw new UnsupportedMediaTypeError({
          message:
            'a multipart/form-data upload cannot have a Content-Encoding; send the ' +
            'file as is or use application/octet-stream',
        });
      }
      multipart(req, res, (err?: unknown) => {
        if (err) {
          dropUnreadBody(req, res);
          // Answered already (a declared size refused before the body: answerBeforeBody).
          if (res.headersSent) return;
          return next(multerError(err));
        }
        const part = streamedPart(req.file);
        if (!part) return next(BadRequestError.field('data', 'the data part (file content) is required'));
        completeMultipart(deps, req, principal, part, requestId).then((reply) => sendReply(res, reply), next);
      });
      return;
    }
    if (!req.is('application/octet-stream')) {
      req.resume();
      throw new UnsupportedMediaTypeError({ message: 'upload with multipart/form-data or application/octet-stream' });
    }
    await streamedUpload(deps, req, res, () =>
      prepareUpload(deps, principal, { ...req.query }, 'query', requestId, { idempotency_key: runningKeyOf(res)?.key }),
    );
  };
}
