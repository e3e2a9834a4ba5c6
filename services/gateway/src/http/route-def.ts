import type { RequestHandler } from 'express';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Principal } from '@patchbay/contracts';
import type { BlobStore, Bus, Logger } from '@patchbay/platform';

/** Where an upload's abort goes when storage did not take it: tried again until it does (upload/abort-retries.ts). */
export interface AbortQueue {
  add(principal: Principal, fileSid: string, requestId: string, err: unknown): void;
}

/** What a route that streams (uploads, downloads, ingest, the media plane) is built with. */
export interface StreamDeps {
  bus: Bus;
  blobs: BlobStore;
  logger: Logger;
  /** How long a call to a service over the bus may take (ms). */
  timeoutMs: number;
  /** The OpenAPI document of this gateway, as served (openapi/document.ts). */
  openapi: () => string;
  /** Aborts of failed uploads storage did not take, tried again until it does (upload/abort-retries.ts). */
  aborts: AbortQueue;
}

/** A body that is not JSON: bytes of one of these media types (`*` patterns allowed), or a form of parts. */
export interface BinaryBody {
  binary: readonly string[];
  /** What the bytes are, in words. */
  description?: string;
}

/**
 * A streamed request body: the media types it may have, each with the schema of its parts (multipart) or null (bytes).
 */
export interface StreamedRequest {
  content: Readonly<Record<string, TSchema | null>>;
}

/**
 * A response of a route: a JSON schema (application/json), `null` for no body (204), or bytes.
 * `headers` names the response headers worth documenting (Content-Range, Retry-After…).
 */
export type ResponseBody = TSchema | null | BinaryBody;

/**
 * What the OpenAPI document says of a route (openapi/), kept beside the route so that the two
 * cannot drift: a route without it, or whose body has no schema, fails the route-table test.
 */
export interface RouteDoc {
  /** One line, as the reference page lists the operation. */
  summary: string;
  /** More, when the line is not enough (Markdown). */
  description?: string;
  /**
   * The request body: its schema for a `json` or `form` body; for a `stream` body the media types
   * it may have, each with the schema of its parts (multipart) or null (raw bytes).
   */
  request?: TSchema | StreamedRequest;
  /** Query parameters besides the list and field-filtering ones: an object schema, one property each. */
  query?: TObject;
  /**
   * A list: `offset` pagination, or `cursor` (after/before too); adds limit, offset, order, filter and field filtering.
   */
  list?: 'offset' | 'cursor';
  /** A GET by SID: adds `include_fields` / `exclude_fields`. */
  fields?: boolean;
  /** Request headers the route reads (Range, If-Range), as name → description. */
  headers?: Readonly<Record<string, string>>;
  /** The success responses by status. */
  responses: Readonly<Partial<Record<200 | 201 | 202 | 204 | 206, ResponseBody>>>;
  /** Error statuses this route answers besides those every route of its kind does (openapi/responses.ts). */
  errors?: readonly number[];
}

/**
 * One route of the public API. The route table (route-table.ts) lists every route, so it is the
 * complete index of the API: the gateway mounts each the same way — authentication and scopes,
 * the body as `body` says, then either the plain forward to `subject` or the route's own
 * `handler` — and the OpenAPI document reads the same entries (`doc`).
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
  /** False for the token grant and the API's own description, which need no credentials. */
  auth?: boolean;
  /** A route not forwarded as-is (it streams a body or a blob): builds its express handler. */
  handler?: (deps: StreamDeps, route: RouteDef) => RequestHandler;
  /** The token grant: no principal yet; the form and the client address go to identity (its login throttle). */
  passwordGrant?: boolean;
  /** The path parameter that is always the caller's own partner (whoami reads `partners.get`). */
  callerParam?: 'partner_sid';
  /** A successful call changes credentials: this replica forgets what it cached (others hear identity's event). */
  purgesCredentials?: boolean;
  /** Its entry in the OpenAPI document. */
  doc: RouteDoc;
}

/** How a route reads its body: as declared, else JSON for POST/PATCH/PUT and none for GET/DELETE. */
export function bodyKind(route: RouteDef): 'json' | 'form' | 'none' | 'stream' {
  return (
    route.body ?? (route.method === 'post' || route.method === 'patch' || route.method === 'put' ? 'json' : 'none')
  );
}

/**
 * Whether the route takes an Idempotency-Key (docs/interface-notes.md, Idempotency keys): every write
 * behind authentication. The token grant has no partner to keep a key for, and its answer is a secret.
 */
export function takesIdempotencyKey(route: RouteDef): boolean {
  return route.method !== 'get' && route.auth !== false;
}

/** Whether a response body is bytes rather than JSON. */
export function isBinary(body: ResponseBody | undefined): body is BinaryBody {
  return typeof body === 'object' && body !== null && 'binary' in body;
}

/** Whether a documented request body is streamed (media types) rather than one JSON or form schema. */
export function isStreamed(request: TSchema | StreamedRequest): request is StreamedRequest {
  return 'content' in request && !('type' in request);
}
