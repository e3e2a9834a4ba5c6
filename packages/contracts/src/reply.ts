import { codeForStatus, isErrorCode, statusOf } from './error-codes';
import { ApiError, errorFromCode } from './errors';
import type { ErrorBody } from './schemas/error';

/**
 * The one bus reply envelope: a body and a status, or an error body and a status — with the error's
 * stable `code` (error-codes.ts; internal: the public HTTP body is `error` alone) and, for a 409,
 * 429 or 503, the seconds after which to try again (the gateway's Retry-After header).
 */
export type BusReply =
  { status: number; body: unknown } | { status: number; error: ErrorBody; code?: string; retry_after?: number };

export function ok(body: unknown, status = 200): BusReply {
  return { status, body };
}

/** The reply for a thrown error; unknown errors must be logged by the caller and become 500. */
export function replyForError(err: unknown): BusReply {
  if (err instanceof ApiError)
    return {
      status: err.status,
      error: err.toBody(),
      code: err.code,
      ...(err.retryAfterSeconds ? { retry_after: err.retryAfterSeconds } : {}),
    };
  return { status: 500, error: { errors: [], message: 'internal server error' }, code: 'internal' };
}

/**
 * Turns a reply into its body, or throws the typed error it carries. The one place replies are read.
 * The error is rebuilt by its code; by its status when the code is missing, unknown here (a newer
 * process) or not of that status.
 */
export function unwrapReply<T = unknown>(reply: BusReply): T {
  if ('error' in reply) {
    const sent = reply.code;
    const code = isErrorCode(sent) && statusOf(sent) === reply.status ? sent : codeForStatus(reply.status);
    throw errorFromCode(code, reply.error, reply.retry_after);
  }
  // why: the body is not checked where it is received; the serving side answers with its table's reply schema.
  return reply.body as T;
}

export function isBusReply(value: unknown): value is BusReply {
  if (typeof value !== 'object' || value === null || !('status' in value)) return false;
  return typeof value.status === 'number' && ('body' in value || 'error' in value);
}
