import type { TObject } from '@sinclair/typebox';
import { MAX_FILTER_BYTES, MAX_FILTER_CONDITIONS, MAX_LIMIT, DEFAULT_LIMIT } from '@patchbay/query';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX } from '@patchbay/contracts';
import { takesIdempotencyKey, type RouteDef } from '../http/route-def';
import type { JsonSchema, SchemaComponents } from './components';

/** An OpenAPI Parameter Object. */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

const q = (name: string, schema: JsonSchema, description: string): Parameter => ({
  name,
  in: 'query',
  description,
  schema,
});

/** Field filtering, on lists and on a GET by SID (docs/interface-notes.md, Field filtering). */
const FIELD_PARAMETERS: Parameter[] = [
  q(
    'include_fields',
    { type: 'string' },
    'Comma-separated fields (dot paths allowed) to return; the others are left out.',
  ),
  q('exclude_fields', { type: 'string' }, 'Comma-separated fields (dot paths allowed) to leave out.'),
];

/** The parameters of every list: pagination, order, filter and field filtering; cursor lists add after/before. */
function listParameters(mode: 'offset' | 'cursor'): Parameter[] {
  const cursor = mode === 'cursor';
  return [
    q(
      'limit',
      { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
      `Items per page (at most ${MAX_LIMIT}).`,
    ),
    q(
      'offset',
      { type: 'integer', minimum: 0, default: 0 },
      cursor ? 'Items skipped. Not with `after`/`before` (only 0 is accepted there).' : 'Items skipped.',
    ),
    q('order', { type: 'string' }, '`<field>`, `<field> asc` or `<field> desc` (the space may be `+`), or `shuffle`.'),
    q(
      'seed',
      { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      'With `order=shuffle`: the same seed gives the same order.',
    ),
    q(
      'filter',
      { type: 'string' },
      '`<field> <op> <value>` joined by ` and `. Operators: eq, ne, lt, le, ' +
        'gt, ge, like, ilike, in, notin, bit. Values: quoted strings, numbers, ' +
        'true/false/null, ISO dates; dot paths reach nested fields. At most ' +
        `${MAX_FILTER_CONDITIONS} conditions and ${MAX_FILTER_BYTES} bytes (beyond: 400 naming filter).`,
    ),
    ...(cursor
      ? [
          q(
            'after',
            { type: 'string', format: 'uuid' },
            'Only the records after this one (a secure ID); `pagination.next` carries it.',
          ),
          q(
            'before',
            { type: 'string', format: 'uuid' },
            'Only the records before this one; `pagination.previous` carries it.',
          ),
        ]
      : []),
    ...FIELD_PARAMETERS,
  ];
}

/** The Idempotency-Key header of every write (docs/interface-notes.md, Idempotency keys). */
export const IDEMPOTENCY_KEY_PARAMETER: Parameter = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  description:
    'Your name for this write, sent again with each retry of it (a UUID, say): a repeat of the same ' +
    'request within 24 hours gets the first answer again (`Idempotent-Replayed: true`) without ' +
    'running twice; a repeat while the first still runs is a 409 with `Retry-After`; the key with ' +
    'another request (method, path, query or body) is a 422. Keys are per partner.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[\\x20-\\x7E]+$' },
};

/** `:name` segments of an express path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

/** An object schema's properties as query parameters (required as the object says). */
export function queryParameters(object: TObject, components: SchemaComponents): Parameter[] {
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, schema]) => {
    const json = components.use(schema);
    const { description, ...rest } = json;
    return {
      name,
      in: 'query' as const,
      ...(required.has(name) ? { required: true } : {}),
      ...(typeof description === 'string' && description ? { description } : {}),
      schema: rest,
    };
  });
}

/** Every parameter of a route: path, list, field filtering, its own query parameters, request headers. */
export function routeParameters(route: RouteDef, components: SchemaComponents): Parameter[] {
  const { doc } = route;
  return [
    ...pathParamNames(route.path).map((name): Parameter => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...(doc.list ? listParameters(doc.list) : doc.fields ? FIELD_PARAMETERS : []),
    ...(doc.query ? queryParameters(doc.query, components) : []),
    ...Object.entries(doc.headers ?? {}).map(([name, description]): Parameter => ({
      name,
      in: 'header',
      description,
      schema: { type: 'string' },
    })),
    ...(takesIdempotencyKey(route) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
}
