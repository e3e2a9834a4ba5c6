/**
 * Field filtering on every GET that returns one object (decisions §41): containers, tokens,
 * partners and whoami honour `include_fields`/`exclude_fields` as files and endpoints do, and a
 * filtered response fits the OpenAPI document as published (the harness checks every response
 * against it; here the document is also read and applied directly, as a client's validator would).
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { API, adminAuth, http, newPartner, type TestPartner } from '../harness/api';
import { createContainer } from '../support/storage';

let p: TestPartner;
let container = '';
let tokenSid = '';
beforeAll(async () => {
  p = await newPartner();
  container = (await createContainer(p, { name: 'selected' })).container_sid;
  tokenSid = (
    await http()
      .get(`${API}/oauth/tokens`)
      .set(...p.auth)
  ).body.items[0].token_sid;
});

const get = (path: string, query: string, auth: [string, string] = p.auth) =>
  http()
    .get(`${API}${path}?${query}`)
    .set(...auth);

test.each([
  ['a container', () => `/storage/containers/${container}`, 'container_sid,name', ['container_sid', 'name']],
  ['a token', () => `/oauth/tokens/${tokenSid}`, 'token_sid,scopes', ['scopes', 'token_sid']],
  ['a partner', () => `/partners/${p.partner_sid}`, 'partner_sid,name', ['name', 'partner_sid']],
  ['whoami', () => '/oauth/whoami', 'login', ['login']],
])('%s: include_fields keeps only those, exclude_fields leaves them out', async (_what, path, fields, kept) => {
  const auth = path().startsWith('/partners') ? adminAuth() : p.auth;
  const included = await get(path(), `include_fields=${fields}`, auth);
  expect(included.status).toBe(200);
  expect(Object.keys(included.body).sort()).toEqual(kept);
  const whole = await get(path(), '', auth);
  const excluded = await get(path(), `exclude_fields=${fields}`, auth);
  expect(excluded.status).toBe(200);
  expect(Object.keys(excluded.body).sort()).toEqual(
    Object.keys(whole.body)
      .filter((k) => !kept.includes(k))
      .sort(),
  );
  const bad = await get(path(), 'include_fields=no_such_field', auth);
  expect(bad.status).toBe(400);
  expect(bad.body.errors[0].field).toBe('include_fields');
});

test(
  "a filtered body fits the published document's 200 schema (a whole one " + 'too); a wrong type still does not',
  async () => {
    const doc = (await http().get(`${API}/openapi.json`)).body as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi');
    const validate = ajv.compile({
      $ref:
        'openapi#/paths/~1storage~1containers~1%7Bcontainer_sid%7D/get' +
        '/responses/200/content/application~1json/schema',
    });
    const filtered = (await get(`/storage/containers/${container}`, 'include_fields=name')).body;
    const whole = (await get(`/storage/containers/${container}`, '')).body;
    expect(validate(filtered)).toBe(true);
    expect(validate(whole)).toBe(true);
    expect(validate({ name: 42 })).toBe(false);
    const list = ajv.compile({
      $ref: 'openapi#/paths/~1storage~1containers/get/responses/200/content/application~1json/schema',
    });
    expect(list((await get('/storage/containers', 'include_fields=container_sid')).body)).toBe(true);
  },
);
