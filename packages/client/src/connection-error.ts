/**
 * A request that never got an answer: the server could not be reached (refused, no such host, timed
 * out, reset, a TLS failure). Its message names where and why, e.g.
 * `cannot reach http://127.0.0.1:8080/core/v2: connection refused`, instead of fetch's bare
 * `fetch failed`; `code` is the system error code when there is one (`ECONNREFUSED`), `cause` the
 * original error.
 */
export class PatchbayConnectionError extends Error {
  override readonly name = 'PatchbayConnectionError';

  constructor(
    /** The address asked: the API root (or a public link's origin), never a token or a query. */
    readonly url: string,
    /** The reason in words: `connection refused`, `host not found`, … */
    readonly reason: string,
    readonly code: string | null,
    cause: unknown,
  ) {
    super(`cannot reach ${url}: ${reason}`, { cause });
  }
}

/** Plain words for the system error codes a connection fails with (Node's undici puts them on `cause`). */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the server',
};

/** The innermost error of a `cause` chain that carries a `code` (undici: TypeError → cause → AggregateError…). */
function codeOf(err: unknown): { code: string | null; message: string | null } {
  let current: unknown = err;
  let message: string | null = null;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ('code' in current && typeof current.code === 'string') {
      const msg = 'message' in current && typeof current.message === 'string' ? current.message : null;
      return { code: current.code, message: msg };
    }
    // An AggregateError (every address of a host refused) holds its reasons in `errors`.
    if ('errors' in current && Array.isArray(current.errors) && current.errors.length > 0) {
      current = current.errors[0];
      continue;
    }
    if ('message' in current && typeof current.message === 'string') message = current.message;
    current = 'cause' in current ? current.cause : undefined;
  }
  return { code: null, message };
}

/** `err` (thrown by fetch for a request to `url`) as a PatchbayConnectionError; an abort is left as it is. */
export function connectionError(url: string, err: unknown): unknown {
  if (err instanceof PatchbayConnectionError) return err;
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) return err;
  const { code, message } = codeOf(err instanceof Error && err.cause !== undefined ? err.cause : err);
  const reason =
    (code && REASONS[code]) ??
    (code && message ? `${message}` : null) ??
    (err instanceof Error && err.message !== 'fetch failed' ? err.message : null) ??
    message ??
    'no answer';
  return new PatchbayConnectionError(url, reason, code, err);
}

/**
 * `fetchImpl` whose network failures become PatchbayConnectionErrors naming `where(request)`.
 * Answers (any status) pass through untouched.
 */
export function reportingFetch(fetchImpl: typeof fetch, where: (input: string) => string): typeof fetch {
  return async (input, init) => {
    try {
      return await fetchImpl(input, init);
    } catch (err) {
      throw connectionError(where(requestUrl(input)), err);
    }
  };
}

function requestUrl(input: Parameters<typeof fetch>[0]): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/** The origin of an absolute URL (for a public link: no path, no query with its secrets). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
