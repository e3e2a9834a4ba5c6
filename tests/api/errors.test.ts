import request from 'supertest';
import { API, adminAuth, expectErrorBody, http, instance } from '../harness/api';

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

  test('/health on the public ports; /metrics only on the operations port, never without it', async () => {
    const inst = instance();
    for (const origin of [inst.origin, inst.storageUrl]) {
      expect((await request(origin).get('/health')).status).toBe(200);
      const metrics = await request(origin).get('/metrics');
      expect(metrics.status).toBe(404);
      expect(metrics.text).not.toContain('# HELP');
    }
    // The all-in-one process's operations port (the distributed services' are checked in tests/distributed).
    if (inst.opsPort) {
      const ops = `http://127.0.0.1:${inst.opsPort}`;
      expect((await request(ops).get('/health')).status).toBe(200);
      const metrics = await request(ops).get('/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain('http_requests_total');
      expect(metrics.text).toContain('file_server_responses_total');
    }
  });
});
