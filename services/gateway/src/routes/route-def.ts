import type { RequestHandler } from 'express';
import type { BlobStore, Bus, Logger } from '@patchbay/platform';

/** What a route that streams (uploads, downloads, ingest, the media plane) is built with. */
export interface StreamDeps {
  bus: Bus;
  blobs: BlobStore;
  logger: Logger;
  /** How long a call to a service over the bus may take (ms). */
  timeoutMs: number;
}

/**
 * One route of the public API. The route table (route-table.ts) lists every route, so it is the
 * complete index of the API: the gateway mounts each the same way — authentication and scopes,
 * the body as `body` says, then either the plain forward to `subject` or the route's own
 * `handler` — and the OpenAPI document reads the same entries.
 */
export interface RouteDef {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** Express path under /core/v2. */
  path: string;
  /** Bus subject the call goes to (the forward's; a `handler` route may use it too). */
  subject?: string;
  /** Any one of these grants the call; empty = any authenticated caller. */
  scopes: readonly string[];
  /**
   * How the body is read: JSON (default for POST/PATCH/PUT), form-encoded, none (default for
   * GET/DELETE: never parsed), or `stream`: left unread for the route's `handler`.
   */
  body?: 'json' | 'form' | 'none' | 'stream';
  /** False for the token grant, which authenticates by its own form fields. */
  auth?: boolean;
  /** A route not forwarded as-is (it streams a body or a blob): builds its express handler. */
  handler?: (deps: StreamDeps, route: RouteDef) => RequestHandler;
  /** The path parameter that is always the caller's own partner (whoami reads `partners.get`). */
  callerParam?: 'partner_sid';
  /** A successful call changes credentials: this replica forgets what it cached (others hear identity's event). */
  purgesCredentials?: boolean;
}

/** How a route reads its body: as declared, else JSON for POST/PATCH/PUT and none for GET/DELETE. */
export function bodyKind(route: RouteDef): 'json' | 'form' | 'none' | 'stream' {
  return route.body ?? (route.method === 'post' || route.method === 'patch' || route.method === 'put' ? 'json' : 'none');
}
