import { bodyKind, isStreamed, type RouteDef } from '../http/route-def';
import type { SchemaComponents } from './components';
import { routeParameters } from './parameters';
import { routeResponses } from './responses';

/**
 * The two ways to authenticate (docs/interface-notes.md, Authentication, partners and scopes): a
 * token, or the partner's login.
 */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token from `POST /oauth/token` (or the one printed at first start).',
  },
  basic: {
    type: 'http',
    scheme: 'basic',
    description: "The partner's login and password. Failed attempts are throttled (429).",
  },
} as const;

/** `GET /storage/files/:file_sid/data` → `/storage/files/{file_sid}/data`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * `get` + `/storage/files/:file_sid/data` → `getStorageFilesByFileSidData`: stable, unique, readable in generated
 * clients.
 */
export function operationId(route: RouteDef): string {
  const camel = (s: string) =>
    s
      .split(/[_.-]/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('');
  const parts = route.path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `By${camel(seg.slice(1))}` : camel(seg)));
  return `${route.method}${parts.join('')}`;
}

/**
 * Who may call: none for the token grant and this document; otherwise a bearer token or Basic,
 * each with the scopes of which any one grants the call — one alternative per scope, since an
 * OpenAPI requirement lists what is needed together (3.1 allows role names for http schemes).
 */
function security(route: RouteDef): Array<Record<string, string[]>> {
  if (route.auth === false) return [];
  if (route.scopes.length === 0) return [{ bearer: [] }, { basic: [] }];
  return (['bearer', 'basic'] as const).flatMap((scheme) => route.scopes.map((scope) => ({ [scheme]: [scope] })));
}

/** The request body: JSON, a form (also accepted as JSON), or the media types a streamed body may have. */
function requestBody(route: RouteDef, components: SchemaComponents): Record<string, unknown> | undefined {
  const { request } = route.doc;
  if (!request) return undefined;
  if (isStreamed(request)) {
    const content = Object.fromEntries(
      Object.entries(request.content).map(([type, schema]) => [type, schema ? { schema: components.use(schema) } : {}]),
    );
    return { required: true, content };
  }
  const types =
    bodyKind(route) === 'form' ? ['application/x-www-form-urlencoded', 'application/json'] : ['application/json'];
  const schema = components.use(request);
  // An empty body reads as `{}`: the body is required only when the schema requires a field.
  return {
    required: (request.required?.length ?? 0) > 0,
    content: Object.fromEntries(types.map((t) => [t, { schema }])),
  };
}

/** The Operation Object of a route (its path item's `<method>` entry). */
export function operation(route: RouteDef, components: SchemaComponents): Record<string, unknown> {
  const { doc } = route;
  const scopes =
    route.scopes.length > 0
      ? `Scopes (any one): ${route.scopes.map((s) => `\`${s}\``).join(', ')}.`
      : route.auth === false
        ? 'No credentials.'
        : 'Any authenticated partner.';
  const parameters = routeParameters(route, components);
  const body = requestBody(route, components);
  return {
    operationId: operationId(route),
    summary: doc.summary,
    description: [doc.description, scopes].filter(Boolean).join('\n\n'),
    // The area: the first path segment (`storage`, `push`…; `openapi` for this document).
    tags: [route.path.split('/')[1].replace(/\.json$/, '')],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: routeResponses(route, components),
    security: security(route),
    'x-scopes': [...route.scopes],
  };
}
