import { Type } from '@sinclair/typebox';

/**
 * How long the public HTTP servers (the gateway's API, the file server) wait for slow clients
 * (docs/security.md "Timeouts and limits"). There is deliberately no limit on a request's total time:
 * a large upload on a good connection may take an hour; what is cut is a client that stops or trickles.
 */
export const HttpServerConfig = {
  /** Longest wait for a request's complete head (request line and headers), from its first byte (ms). */
  HTTP_HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600000, default: 20000 }),
  /** How long a keep-alive connection may stay idle between requests (ms). */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600000, default: 65000 }),
  /**
   * While the server reads a request body, each window of this many ms must bring at least
   * HTTP_BODY_MIN_BYTES, or the request is cut (408, connection closed). Windows in which the server
   * itself is not reading (its store is slow) do not count against the client.
   */
  HTTP_BODY_TIMEOUT_MS: Type.Integer({ minimum: 200, maximum: 3600000, default: 30000 }),
  /** See HTTP_BODY_TIMEOUT_MS; 1 cuts only a body that stops altogether. */
  HTTP_BODY_MIN_BYTES: Type.Integer({ minimum: 1, maximum: 1073741824, default: 16384 }),
};

/** The HTTP server settings of HttpServerConfig. */
export interface HttpTimeouts {
  headersMs: number;
  keepAliveMs: number;
  bodyMs: number;
  bodyMinBytes: number;
}

/** The one reading of HttpServerConfig. */
export function httpTimeouts(c: {
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  HTTP_BODY_TIMEOUT_MS: number;
  HTTP_BODY_MIN_BYTES: number;
}): HttpTimeouts {
  return {
    headersMs: c.HTTP_HEADERS_TIMEOUT_MS,
    keepAliveMs: c.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    bodyMs: c.HTTP_BODY_TIMEOUT_MS,
    bodyMinBytes: c.HTTP_BODY_MIN_BYTES,
  };
}

/** The defaults, for servers started without configuration (tests). */
export const DEFAULT_HTTP_TIMEOUTS: Readonly<HttpTimeouts> = Object.freeze({
  headersMs: 20000,
  keepAliveMs: 65000,
  bodyMs: 30000,
  bodyMinBytes: 16384,
});
