import { API, adminAuth, expectErrorBody, http } from '../harness/api';

describe('error responses', () => {
  test('unknown route: 404 JSON, also outside /core/v2 and with a trailing slash', async () => {
    for (const path of [`${API}/nope`, '/nope', `${API}/countries/`]) {
      const res = await http()
        .get(path)
        .set(...adminAuth());
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expectErrorBody(res.body);
    }
  });

  test('invalid JSON: 400 "No JSON object could be decoded"', async () => {
    const res = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .set('Content-Type', 'application/json')
      .send('{"login": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [], message: 'No JSON object could be decoded' });
  });

  test('a non-JSON body on a JSON route: 415', async () => {
    const res = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .set('Content-Type', 'text/plain')
      .send('login=x');
    expect(res.status).toBe(415);
    expectErrorBody(res.body);
  });

  test('an oversized body: 413', async () => {
    const res = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .send({ login: 'big', password: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expectErrorBody(res.body);
  });

  test('a JSON Content-Type on a GET with an empty body is fine', async () => {
    const res = await http()
      .get(`${API}/countries?limit=1`)
      .set(...adminAuth())
      .set('Content-Type', 'application/json');
    expect(res.status).toBe(200);
  });

  test('every response carries a request ID, kept when the client sends one', async () => {
    const res = await http()
      .get(`${API}/countries?limit=1`)
      .set(...adminAuth())
      .set('X-Request-Id', 'client-chosen-id-1');
    expect(res.headers['x-request-id']).toBe('client-chosen-id-1');
  });

  test('/health and /metrics', async () => {
    const health = await http().get('/health');
    expect(health.status).toBe(200);
    const metrics = await http().get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('http_requests_total');
  });
});
