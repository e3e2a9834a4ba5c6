/**
 * Every error's stable code: the one place its HTTP status (and the message it has when none is
 * given) comes from. Callers tell errors apart by `code`, never by their message; the code travels
 * in the bus reply beside the error body (reply.ts), and is not part of the public HTTP body.
 *
 * One general code per status, then the specific codes callers match on. A new code is one line
 * here, with the status of the class that throws it (the classes accept only codes of their status).
 */
export const ERROR_CODES = {
  // General: one per status (the last 401 is the login refusal, its own message).
  bad_request: { status: 400, message: 'bad request' },
  unauthorized: { status: 401, message: 'Unauthorized' },
  bad_credentials: { status: 401, message: 'Bad credentials' },
  forbidden: { status: 403, message: 'Forbidden' },
  not_found: { status: 404, message: 'Cannot find item by SID' },
  conflict: { status: 409, message: 'conflict error' },
  payload_too_large: { status: 413, message: 'request entity too large' },
  unsupported_media_type: { status: 415, message: 'unsupported media type' },
  range_not_satisfiable: { status: 416, message: 'range not satisfiable' },
  object_validation: { status: 422, message: 'object validation error' },
  too_many_requests: { status: 429, message: 'too many requests' },
  internal: { status: 500, message: 'internal server error' },
  bad_reply: { status: 502, message: 'bad reply' },
  unavailable: { status: 503, message: 'service unavailable' },
  timeout: { status: 504, message: 'service timed out' },

  // Specific.
  /** The stored blob is not there (deleted, or never written): not an unknown SID. */
  blob_not_found: { status: 404, message: 'blob not found' },
  /** The upload is gone: committed, aborted or swept, or another commit of it is running. */
  upload_not_found: { status: 404, message: 'upload not found' },
  /** A unique index refused a write (DuplicateKeyError). */
  duplicate_key: { status: 409, message: 'conflict error' },
  /** A request with the same Idempotency-Key is still running (with Retry-After). */
  idempotency_key_in_progress: { status: 409, message: 'conflict error' },
  /** Requests with the same Idempotency-Key kept taking the key from each other. */
  idempotency_key_contended: { status: 409, message: 'conflict error' },
  /** The Idempotency-Key was used before for another request. */
  idempotency_key_mismatch: { status: 422, message: 'object validation error' },
  /** A container's quota of files or bytes would be passed. */
  quota_exceeded: { status: 422, message: 'object validation error' },
  /** The document store failed (a full disk, an I/O error). */
  store_error: { status: 500, message: 'document store error' },
  /** The blob store failed (a local file-system error). */
  blob_store_error: { status: 500, message: 'blob store error' },
  /** A message the bus cannot carry (BusPayloadError). */
  bus_payload: { status: 500, message: 'bus payload error' },
  /** Nobody serves the subject (NoRespondersError). */
  no_responders: { status: 503, message: 'service unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes whose status is `S`: what an error class of that status accepts. */
export type CodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The HTTP status of a code. */
export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/**
 * The general code of a status, for an error that came without a code (an HTTP library's refusal, a
 * reply from a process older than codes): the first code of that status, else `bad_request` for a
 * 4xx and `internal` for anything else.
 */
export function codeForStatus(status: number): ErrorCode {
  for (const [code, entry] of Object.entries(ERROR_CODES))
    if (entry.status === status && isErrorCode(code)) return code;
  return status >= 400 && status < 500 ? 'bad_request' : 'internal';
}
