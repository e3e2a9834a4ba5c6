/**
 * The route table is the one source of the OpenAPI document (decisions §25): a route that does not say
 * what it takes and gives fails here — a summary, a schema for its success response (or `null` for
 * no body, or the media types of bytes), and a schema for any body it reads.
 */
import { ROUTES } from '../../src/routes/route-table';
import { bodyKind, isBinary, isStreamed, type RouteDef } from '../../src/http/route-def';

const name = (r: RouteDef) => `${r.method.toUpperCase()} ${r.path}`;
/** A TypeBox/JSON schema: an object with a type, a reference or a combination. */
const isSchema = (s: unknown) =>
  typeof s === 'object' &&
  s !== null &&
  ['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'const', 'enum'].some((k) => k in s);

/** What is missing from a route's documentation, in words (empty: nothing). */
function missing(route: RouteDef): string[] {
  const problems: string[] = [];
  const { doc } = route;
  if (!doc.summary?.trim()) problems.push('a summary');
  const success = Object.entries(doc.responses);
  if (success.length === 0) problems.push('a success response');
  for (const [status, body] of success) {
    const ok =
      status === '204'
        ? body === null
        : body !== null && body !== undefined && (isBinary(body) ? body.binary.length > 0 : isSchema(body));
    if (!ok) problems.push(`a schema for its ${status} response`);
  }
  const kind = bodyKind(route);
  if (kind === 'json' || kind === 'form') {
    if (!doc.request || isStreamed(doc.request) || !isSchema(doc.request))
      problems.push(`a schema for its ${kind} body`);
  }
  if (kind === 'stream' && (!doc.request || !isStreamed(doc.request) || Object.keys(doc.request.content).length === 0))
    problems.push('the media types of its streamed body');
  if (kind === 'none' && doc.request) problems.push('no body schema (it reads no body)');
  return problems;
}

test('every route of the table documents its schemas', () => {
  const undocumented = ROUTES.map((r) => ({ route: name(r), missing: missing(r) })).filter((r) => r.missing.length > 0);
  expect(undocumented).toEqual([]);
});

test('a route without a schema is caught', () => {
  const route = ROUTES.find((r) => r.method === 'post' && r.path === '/endpoints')!;
  expect(missing({ ...route, doc: { ...route.doc, request: undefined } })).toEqual(['a schema for its json body']);
  expect(missing({ ...route, doc: { ...route.doc, responses: { 200: undefined } } })).toEqual([
    'a schema for its 200 response',
  ]);
  expect(missing({ ...route, doc: { ...route.doc, summary: ' ' } })).toEqual(['a summary']);
});

test('each method and path is routed once', () => {
  const seen = ROUTES.map(name);
  expect(new Set(seen).size).toBe(seen.length);
});
