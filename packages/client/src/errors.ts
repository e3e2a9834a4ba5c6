import type { ErrorBody, ErrorItem } from './types';

/**
 * A non-2xx answer of the API, typed: its status, the error body's `message` and `errors` (each
 * naming a field, or null for the request), `Retry-After` when the API says when to try again
 * (429 login throttling, 503), and the request ID to quote in a report. The message reads like
 * `HTTP 400: validation error` followed by one line per error.
 */
export class PatchbayApiError extends Error {
  override readonly name = 'PatchbayApiError';
  readonly errors: readonly ErrorItem[];

  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly retryAfter: number | null = null,
    readonly requestId: string | null = null,
  ) {
    super(
      `HTTP ${status}: ` +
        `${body.message}${body.errors.map((e) => `\n  - ${e.field ?? '(request)'}: ${e.message}`).join('')}`,
    );
    this.errors = body.errors;
  }

  /** The error messages by field (`null` field: under `''`), e.g. `{ limit: ['limit must be …'] }`. */
  byField(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const e of this.errors) (out[e.field ?? ''] ??= []).push(e.message);
    return out;
  }

  /**
   * The error of `response` (its body already read as `body`): the API's error body as it is, or —
   * for an answer that is not one (a proxy's HTML page) — one built from the status and the text.
   */
  static from(response: Response, body: unknown): PatchbayApiError {
    const retry = Number(response.headers.get('retry-after'));
    const requestId = response.headers.get('x-request-id');
    const errorBody: ErrorBody = isErrorBody(body)
      ? body
      : {
          message: typeof body === 'string' && body ? body.slice(0, 500) : response.statusText || 'request failed',
          errors: [],
        };
    return new PatchbayApiError(
      response.status,
      errorBody,
      Number.isFinite(retry) && retry > 0 ? retry : null,
      requestId,
    );
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    'message' in value &&
    typeof value.message === 'string' &&
    'errors' in value &&
    Array.isArray(value.errors)
  );
}
