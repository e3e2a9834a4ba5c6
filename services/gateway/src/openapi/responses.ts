import { ErrorBodySchema, IDEMPOTENT_REPLAYED_HEADER } from '@patchbay/contracts';
import { bodyKind, isBinary, takesIdempotencyKey, type ResponseBody, type RouteDef } from '../http/route-def';
import type { JsonSchema, SchemaComponents } from './components';
import { pathParamNames } from './parameters';

/** What each error status means (docs/interface-notes.md, Status codes and errors); every one has the error body. */
export const ERROR_STATUSES: Readonly<Record<number, string>> = {
  400:
    'Malformed request: invalid JSON, a body or parameter that does not ' +
    'fit its schema, a bad filter or pagination. `errors` names each field.',
  401: 'No credentials ("Unauthorized"), or wrong or revoked ones ("Bad credentials").',
  403: 'The partner lacks the scope the operation needs ("Forbidden").',
  404: 'Unknown secure ID ("Cannot find item by SID"), also for another partner\'s objects.',
  409:
    'Conflict ("conflict error"): a duplicate, or the object changed by other requests at the same ' +
    'time; or a request with the same `Idempotency-Key` is still running (try again after `Retry-After`).',
  413: 'The body is larger than allowed.',
  415: 'Unsupported media type (Content-Type or Content-Encoding).',
  416: 'The range is outside the file.',
  422:
    'Object validation error: a well-formed request that breaks a rule of ' +
    'the object (classification, unique keys, quota, threshold, scope for ' +
    'a field, a reference to nothing); or an `Idempotency-Key` used before for a different request.',
  429:
    'Too many failed logins, or too many large lists (`limit` over 100 by default) of this partner ' +
    'in progress at once: try again after `Retry-After` seconds.',
  500: 'Internal server error.',
  503:
    'A service behind the API is down, unavailable or busy (or a piece it needs ' +
    'is missing, such as ffmpeg): nothing was done. `Retry-After` when it is ' +
    'known. Only when the message bus or the service process was lost while the ' +
    'call waited (the message says so) may a write have taken effect: repeat it ' +
    'with the same `Idempotency-Key`.',
  504: 'A service did not answer in time.',
};

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
};

/** The header of an answer replayed for a repeated Idempotency-Key. */
const REPLAYED = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: '`true` when this is the answer kept for an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * The error statuses a route can answer, from what it is: every route can fail behind the API
 * (500, 503, 504); authenticated ones can be refused (401, 403 with scopes, 429 for throttled Basic
 * logins); path parameters can name nothing (404); bodies and parameters can be malformed (400),
 * too large (413) or of the wrong type (415); writes can break object rules (422) or collide (409).
 * `doc.errors` adds what only that route does.
 */
export function errorStatuses(route: RouteDef): number[] {
  const body = bodyKind(route);
  const write = route.method !== 'get';
  const set = new Set<number>([500, 503, 504, ...(route.doc.errors ?? [])]);
  if (route.auth !== false) [401, 429].forEach((s) => set.add(s));
  if (route.auth !== false && route.scopes.length > 0) set.add(403);
  if (pathParamNames(route.path).length > 0) set.add(404);
  // A malformed path parameter (bad percent-encoding) is a 400 too.
  if (route.doc.list || route.doc.fields || route.doc.query || body !== 'none' || pathParamNames(route.path).length > 0)
    set.add(400);
  if (body === 'json' || body === 'form') [413, 415].forEach((s) => set.add(s));
  if (write && route.subject && route.auth !== false) [409, 422].forEach((s) => set.add(s));
  // Idempotency-Key: malformed (400), still running (409), used for another request (422).
  if (takesIdempotencyKey(route)) [400, 409, 422].forEach((s) => set.add(s));
  return [...set].sort((a, b) => a - b);
}

/** One success response: JSON (a schema), no content (null), or bytes. */
export function successResponse(
  status: number,
  body: ResponseBody,
  components: SchemaComponents,
  selectable = false,
  replayable = false,
): Record<string, unknown> {
  const description =
    status === 204
      ? 'Done; no body.'
      : status === 201
        ? 'Created.'
        : status === 202
          ? 'Accepted: the work goes on after the answer.'
          : status === 206
            ? 'Partial content.'
            : 'OK.';
  const replay = replayable ? { headers: REPLAYED } : {};
  if (body === null) return { description, ...replay };
  if (isBinary(body)) {
    const headers =
      status === 206
        ? { 'Content-Range': { description: 'bytes <start>-<end>/<size>', schema: { type: 'string' } } }
        : undefined;
    return {
      description: body.description ?? description,
      ...(headers ? { headers } : {}),
      content: Object.fromEntries(
        body.binary.map((t) => [
          t,
          { schema: { type: 'string', contentMediaType: t === '*/*' ? 'application/octet-stream' : t } },
        ]),
      ),
    };
  }
  const schema = selectable ? components.useSelectable(body) : components.use(body);
  return { description, ...replay, content: { 'application/json': { schema } } };
}

/** The names of the shared error responses (`components.responses`), by status. */
const ERROR_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  416: 'RangeNotSatisfiable',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

/** A reference to the shared response of an error status (each is described once, in `components.responses`). */
export function errorResponse(status: number): Record<string, unknown> {
  const name = ERROR_NAMES[status];
  if (!name) throw new Error(`no shared response for status ${status}`);
  return { $ref: `#/components/responses/${name}` };
}

/** `components.responses`: every error status, its meaning and the error body (with Retry-After where it applies). */
export function errorResponses(components: SchemaComponents): Record<string, unknown> {
  const schema: JsonSchema = components.use(ErrorBodySchema);
  return Object.fromEntries(
    Object.entries(ERROR_NAMES).map(([status, name]) => [
      name,
      {
        description: ERROR_STATUSES[Number(status)],
        ...(status === '409' || status === '429' || status === '503' ? { headers: RETRY_AFTER } : {}),
        content: { 'application/json': { schema } },
      },
    ]),
  );
}

/** Every response of a route: its successes, then each error status it can answer. */
export function routeResponses(route: RouteDef, components: SchemaComponents): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const selectable = route.method === 'get' && (route.doc.fields === true || route.doc.list !== undefined);
  for (const [status, body] of Object.entries(route.doc.responses))
    if (body !== undefined)
      out[status] = successResponse(
        Number(status),
        body,
        components,
        selectable && status === '200',
        takesIdempotencyKey(route),
      );
  for (const status of errorStatuses(route)) out[String(status)] = errorResponse(status);
  return out;
}
