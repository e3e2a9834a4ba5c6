/**
 * The OpenAPI document (decisions §25): a valid OpenAPI 3.1 document by a well-kept validator
 * (@readme/openapi-parser), holding every route of the route table with its parameters, body,
 * responses (each error status with the error body) and scopes, and the public file server.
 */
import { validate, compileErrors } from '@readme/openapi-parser';
import { ROUTES } from '../../src/routes/route-table';
import { bodyKind } from '../../src/http/route-def';
import { openApiPath } from '../../src/openapi/operation';
import { testDocument, TEST_URLS, type Doc } from './document-kit';

const doc: Doc = testDocument();

test('the document is valid OpenAPI 3.1', async () => {
  expect(doc.openapi).toBe('3.1.0');
  const result = await validate(structuredClone(doc) as never);
  if (!result.valid) throw new Error(compileErrors(result));
  expect(result.valid).toBe(true);
});

test('the validator does refuse a broken document (it is not a formality)', async () => {
  const badParameter = structuredClone(doc);
  badParameter.paths['/endpoints'].get.parameters![0].in = 'body';
  expect((await validate(badParameter as never)).valid).toBe(false);
  const danglingRef = structuredClone(doc);
  danglingRef.paths['/endpoints'].post.responses['200'].content!['application/json'].schema = {
    $ref: '#/components/schemas/NoSuchThing',
  };
  expect(await validate(danglingRef as never).catch((err: Error) => ({ valid: false, err }))).toMatchObject({
    valid: false,
  });
});

test('every route of the route table is in the document, with its scopes as alternatives of bearer and basic', () => {
  for (const route of ROUTES) {
    const op = doc.paths[openApiPath(route.path)]?.[route.method];
    expect({ route: `${route.method} ${route.path}`, present: Boolean(op) }).toEqual({
      route: `${route.method} ${route.path}`,
      present: true,
    });
    if (route.auth === false) expect(op.security).toEqual([]);
    else if (route.scopes.length === 0) expect(op.security).toEqual([{ bearer: [] }, { basic: [] }]);
    else
      expect(op.security).toEqual([
        ...route.scopes.map((s) => ({ bearer: [s] })),
        ...route.scopes.map((s) => ({ basic: [s] })),
      ]);
  }
  const operations = Object.entries(doc.paths)
    .filter(([p]) => !p.startsWith('/f/'))
    .flatMap(([, item]) => Object.keys(item));
  expect(operations).toHaveLength(ROUTES.length);
});

test(
  'path parameters are declared; every body has a schema; every ' + 'operation answers its errors with the error body',
  () => {
    for (const route of ROUTES) {
      const op = doc.paths[openApiPath(route.path)][route.method];
      for (const name of [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
        expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
      if (bodyKind(route) !== 'none') expect(Object.keys(op.requestBody?.content ?? {}).length).toBeGreaterThan(0);
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.map(([s]) => s)).toEqual(expect.arrayContaining(['500', '503', '504']));
      for (const [, response] of errors) expect(response.$ref).toMatch(/^#\/components\/responses\/\w+$/);
    }
    for (const response of Object.values(doc.components.responses) as Array<{
      content: Record<string, { schema: unknown }>;
    }>) {
      expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
    expect(doc.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'basic' },
    });
  },
);

test('lists take pagination, filter and field filtering; cursor lists also after and before', () => {
  const names = (path: string) => (doc.paths[path].get.parameters ?? []).map((p) => p.name);
  expect(names('/endpoints')).toEqual(
    expect.arrayContaining(['limit', 'offset', 'order', 'filter', 'include_fields', 'exclude_fields', 'with_related']),
  );
  expect(names('/endpoints')).not.toContain('after');
  expect(names('/calls/call_drs')).toEqual(expect.arrayContaining(['limit', 'after', 'before', 'filter']));
  expect(names('/storage/files/{file_sid}')).toEqual(expect.arrayContaining(['include_fields', 'exclude_fields']));
  expect(doc.paths['/endpoints'].get.responses['200'].content?.['application/json'].schema).toMatchObject({
    properties: {
      items: {
        items: {
          anyOf: [{ $ref: '#/components/schemas/Endpoint' }, { $ref: '#/components/schemas/EndpointSelection' }],
        },
      },
    },
  });
  // The Selection form: the same fields, none required (a field-filtered body), nested parts too.
  const selection = doc.components.schemas.EndpointSelection as Record<string, unknown>;
  expect(selection.required).toBeUndefined();
  expect(Object.keys(selection.properties as object)).toEqual(
    Object.keys((doc.components.schemas.Endpoint as { properties: object }).properties),
  );
});

test('uploads document both bodies; the media plane its query; the login its 429', () => {
  const upload = doc.paths['/storage/files'].post;
  expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data', 'application/octet-stream']);
  expect(upload.parameters?.map((p) => p.name)).toEqual(
    expect.arrayContaining(['container_sid', 'name', 'desired_format', 'type']),
  );
  expect(doc.paths['/media/playback'].get.parameters?.map((p) => p.name)).toEqual([
    'endpoint_sid',
    'file_sid',
    'uri',
    'Range',
  ]);
  expect(Object.keys(doc.paths['/oauth/token'].post.responses)).toContain('429');
  expect(Object.keys(doc.paths['/oauth/token'].post.requestBody!.content)).toContain(
    'application/x-www-form-urlencoded',
  );
});

test('the public file server is its own server, with its query parameters and Range', () => {
  const item = doc.paths['/f/{file_identifier}'];
  expect(item.servers).toEqual([expect.objectContaining({ url: TEST_URLS.storageUrl })]);
  expect(doc.servers).toEqual([expect.objectContaining({ url: TEST_URLS.baseUrl })]);
  expect(item.get.parameters?.map((p) => p.name)).toEqual([
    'file_identifier',
    'disposition',
    'disposition_name',
    'content_type',
    'cache_headers',
    'cache_control',
    'f',
    'br',
    'Range',
    'If-Range',
    'If-None-Match',
    'If-Modified-Since',
  ]);
  expect(item.get.security).toEqual([]);
  expect(Object.keys(item.get.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '404', '416', '503']));
});
