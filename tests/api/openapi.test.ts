/**
 * The OpenAPI document as served (decisions §25): `GET /core/v2/openapi.json` needs no credentials and
 * names this instance's servers; and the check every API test's responses go through
 * (harness/conformance.ts) is live and does refuse a response that does not match.
 */
import { API, adminAuth, http, instance } from '../harness/api';
import { checkedResponses, responseChecker } from '../harness/conformance';

test("the document is served without credentials and names this instance's API and file server", async () => {
  const res = await http().get(`${API}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.openapi).toBe('3.1.0');
  expect(res.body.servers[0].url).toBe(instance().baseUrl);
  expect(res.body.paths['/f/{file_identifier}'].servers[0].url).toBe(instance().storageUrl);
});

test("every response of this suite is checked: the hook counts this test's own requests", async () => {
  const before = checkedResponses();
  await http()
    .get(`${API}/countries?limit=1`)
    .set(...adminAuth())
    .expect(200);
  await http()
    .get(`${API}/countries/XXX`)
    .set(...adminAuth())
    .expect(404);
  expect(checkedResponses()).toBe(before + 2);
});

describe('the check refuses what does not match the document', () => {
  const url = (path: string) => `${instance().baseUrl}${path}`;
  const sid = '6f1c2d4e-8a3b-4c5d-9e7f-0123456789ab';
  const endpoint = {
    addresses: [],
    attributes: {},
    auth_required: true,
    capacity: 0,
    cps_limit: null,
    endpoint_sid: sid,
    name: 'n',
    out_sip_password: null,
    out_sip_username: null,
    partner_sid: sid,
    properties: {},
    transformations: [],
    type: 'third_party',
    voip_token: null,
  };
  const check = (
    path: string,
    status: number,
    body: unknown,
    contentType = 'application/json; charset=utf-8',
    method = 'GET',
  ) =>
    responseChecker().check({
      method,
      url: url(path),
      status,
      contentType,
      text: typeof body === 'string' ? body : JSON.stringify(body),
    });

  test('a conforming body passes', () => {
    expect(check(`/endpoints/${sid}`, 200, endpoint)).toBeNull();
    expect(check('/endpoints/nope', 404, { message: 'Cannot find item by SID', errors: [] })).toBeNull();
  });

  test('a missing field, an extra field, a wrong type', () => {
    const { name: _name, ...withoutName } = endpoint;
    expect(check(`/endpoints/${sid}`, 200, withoutName)).toMatch(
      /GET \/core\/v2\/endpoints\/.* → 200: the body does not fit the document: .*name/,
    );
    expect(check(`/endpoints/${sid}`, 200, { ...endpoint, secret: 1 })).toMatch(/additional properties \(secret\)/);
    expect(check(`/endpoints/${sid}`, 200, { ...endpoint, capacity: 'many' })).toMatch(/\/capacity must be integer/);
  });

  test('an error body of another shape, an undocumented status, a body that is not JSON', () => {
    expect(check(`/endpoints/${sid}`, 404, { error: 'not found' })).toMatch(/→ 404: the body does not fit/);
    expect(check(`/endpoints/${sid}`, 418, { message: 'teapot', errors: [] })).toMatch(/status not documented/);
    expect(check(`/endpoints/${sid}`, 500, '<html>oops</html>', 'text/html')).toMatch(
      /documented as application\/json, got "text\/html"/,
    );
    expect(check(`/endpoints/${sid}`, 204, 'x', 'text/plain', 'DELETE')).toMatch(/documented without a body/);
  });

  test('a path the API does not have must be the 404 error body', () => {
    expect(check('/no-such-thing', 200, {})).toMatch(/no operation in the document/);
    expect(check('/no-such-thing', 404, { message: 'Not Found', errors: [] })).toBeNull();
  });
});
