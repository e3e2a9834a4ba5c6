import type { IncomingHttpHeaders } from 'node:http';
import {
  ApiError,
  codeForStatus,
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  errorItem,
} from '@patchbay/contracts';
import { errorCode, fieldOf } from '../basics/error-fields';

/**
 * zlib's codes for data that does not decompress (Z_DATA_ERROR, Z_BUF_ERROR, brotli's ERR__ERROR_*, zstd's
 * ZSTD_error_*).
 */
const DECOMPRESSION_CODE = /^(Z_|ERR__ERROR_|ZSTD_error_)/;

/** Whether `err` is zlib's refusal of data that does not decompress (the client's fault). */
export function isDecompressionError(err: unknown): boolean {
  const code = errorCode(err);
  return typeof code === 'string' && DECOMPRESSION_CODE.test(code);
}

/**
 * What the HTTP stack itself throws for a request that is the client's fault — express's router
 * (a path that does not percent-decode), body-parser (invalid JSON, too large, an unknown charset
 * or encoding), zlib (a body that does not match its Content-Encoding) — as the ApiError to answer
 * with. Undefined for anything else: that is a server fault, logged and answered 500.
 */
export function clientError(err: unknown, req: { headers: IncomingHttpHeaders }): ApiError | undefined {
  if (err instanceof ApiError) return err;
  switch (fieldOf(err, 'type')) {
    case 'entity.parse.failed':
      return new BadRequestError({ message: 'No JSON object could be decoded' });
    case 'entity.too.large':
      return new PayloadTooLargeError();
    case 'encoding.unsupported':
      return new UnsupportedMediaTypeError({
        message: `Content-Encoding ${String(req.headers['content-encoding'])} is not supported`,
      });
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError();
    case 'request.aborted':
      return new BadRequestError({ message: 'request aborted' });
    default:
      break;
  }
  if (err instanceof URIError)
    return new BadRequestError({
      message: 'validation error',
      errors: [errorItem('the path is not valid percent-encoded UTF-8', 'path')],
    });
  if (isDecompressionError(err)) return notEncodedAsSaid(req);
  const status = fieldOf(err, 'status') ?? fieldOf(err, 'statusCode');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Anything else body-parser refused: with a Content-Encoding, the body did not decompress.
    if (req.headers['content-encoding'] && status === 400) return notEncodedAsSaid(req);
    return new ApiError({ code: codeForStatus(status), message: status === 400 ? 'bad request' : 'request refused' });
  }
  return undefined;
}

function notEncodedAsSaid(req: { headers: IncomingHttpHeaders }): BadRequestError {
  return new BadRequestError({
    message: 'validation error',
    errors: [errorItem(`the body is not valid ${String(req.headers['content-encoding'])} data`, 'Content-Encoding')],
  });
}
