import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import { UnprocessableError, type ApiError } from '@patchbay/contracts';
import { contentCoding } from '../http/content-encoding';
import { sendError } from '../http/respond';
import { dropUnreadBody } from '../http/unread-body';

/**
 * Most a multipart body holds besides the file: its fields (20 of at most 64 KiB, as the upload
 * route lets multer read them) and the part headers and boundaries, generously. A multipart body
 * declared larger than the room left plus this cannot fit, whatever its fields.
 */
export const MULTIPART_SLACK = 4 * 1024 * 1024;

/**
 * Refuses, before a byte of it is read, a body whose Content-Length already says the file cannot
 * fit in the `maxBytes` left in the container: the same 422 naming `quota_bytes` that the byte
 * count gives once too many bytes have arrived, without receiving them. A compressed body is not
 * judged by its declared length (its decoded size is known only by reading it); `slack` is what
 * the body may hold besides the file (MULTIPART_SLACK for a form).
 */
export function refuseDeclaredOversize(req: IncomingMessage, maxBytes: number, slack = 0): void {
  const declared = Number(req.headers['content-length']);
  if (!Number.isSafeInteger(declared) || contentCoding(req)) return;
  if (declared - slack > maxBytes)
    throw UnprocessableError.field(
      'quota_bytes',
      `the file does not fit in the container quota (Content-Length ${declared}, ${maxBytes} bytes left)`,
    );
}

/**
 * Answers `err` now, while the body is still coming (multer would answer only once it has read all
 * of it), and drops the rest as dropUnreadBody does. The route's own error path then finds the
 * answer sent and leaves it.
 */
export function answerBeforeBody(req: IncomingMessage, res: Response, err: ApiError): void {
  if (res.headersSent) return;
  res.setHeader('Connection', 'close');
  sendError(res, err);
  dropUnreadBody(req, res);
}
