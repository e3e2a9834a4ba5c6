import request from 'supertest';
import { API, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { createContainer, uploadRaw } from '../support/storage';
import type { ApiJson } from '../support/api-json';

let p: TestPartner;
let containerSid: string;
const DATA = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');
const pub = () => request(instance().storageUrl);
const binary = (r: request.Test) =>
  r.buffer(true).parse((res, cb) => {
    const c: Buffer[] = [];
    res.on('data', (b: Buffer) => c.push(b));
    res.on('end', () => cb(null, Buffer.concat(c)));
  });

async function upload(fields: Record<string, string> = {}): Promise<ApiJson> {
  const res = await uploadRaw(
    p,
    { container_sid: containerSid, name: 'recording.wav', mime_type: 'audio/x-wav', ...fields },
    DATA,
  );
  expect(res.status).toBe(201);
  return res.body;
}
const idOf = (uri: string) => uri.split('/f/')[1];

beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 5 } });
  containerSid = (await createContainer(p)).container_sid;
});

describe('GET {storage_url}/f/<id>', () => {
  test('serves a published file without Authorization, with every header', async () => {
    const f = await upload();
    expect(f.publish_uri).toBe(`${instance().storageUrl}/f/${f.file_sid}`);
    const res = await binary(pub().get(`/f/${f.file_sid}`));
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body, DATA)).toBe(0);
    expect(res.headers).toMatchObject({
      'content-type': 'audio/x-wav',
      'content-length': String(DATA.length),
      'cache-control': 'None',
      'content-disposition': 'inline',
      'accept-ranges': 'bytes',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
    });
    expect(new Date(res.headers['last-modified']).getTime()).toBe(
      Math.floor(new Date(f.date_modified).getTime() / 1000) * 1000,
    );
    expect(res.headers['content-range']).toBeUndefined();
    const head = await pub().head(`/f/${f.file_sid}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(DATA.length));
  });

  test('publish file_access_name: only that form works', async () => {
    const f = await upload({ publish: 'file_access_name' });
    expect((await pub().get(`/f/${f.file_access_name}`)).status).toBe(200);
    expect((await pub().get(`/f/${f.file_sid}`)).status).toBe(404);
  });

  test('unpublished, unknown, wrong form, publish-forbidding container, other paths: the same 404', async () => {
    const hidden = await upload({ publish: 'no' });
    const closed = await createContainer(p, { allow_publish: false });
    const inClosed = (
      await uploadRaw(p, { container_sid: closed.container_sid, name: 'x.wav', publish: 'file_sid' }, DATA)
    ).body;
    const bodies = [];
    for (const path of [
      `/f/${hidden.file_sid}`,
      `/f/${hidden.file_access_name}`,
      '/f/00000000-0000-4000-8000-000000000000',
      `/f/${inClosed.file_sid}`,
      '/nope',
      '/f/',
    ]) {
      const res = await pub().get(path);
      expect(res.status).toBe(404);
      expectErrorBody(res.body);
      bodies.push(res.body);
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  test('never touches date_last_accessed', async () => {
    const f = await upload();
    await pub().get(`/f/${f.file_sid}`);
    const after = await http()
      .get(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth);
    expect(after.body.date_last_accessed).toBe(f.date_last_accessed);
  });

  test('unpublishing or deleting takes effect at once', async () => {
    const f = await upload();
    expect((await pub().get(`/f/${f.file_sid}`)).status).toBe(200);
    await http()
      .patch(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth)
      .send({ publish: 'no' });
    expect((await pub().get(`/f/${f.file_sid}`)).status).toBe(404);
    const g = await upload();
    expect((await pub().get(`/f/${g.file_sid}`)).status).toBe(200);
    await http()
      .delete(`${API}/storage/files/${g.file_sid}`)
      .set(...p.auth);
    expect((await pub().get(`/f/${g.file_sid}`)).status).toBe(404);
  });
});

describe('cross-origin players', () => {
  const preflight = (id: string, method = 'GET', headers = 'range') =>
    pub()
      .options(`/f/${id}`)
      .set('Origin', 'https://player.example')
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', headers);

  test('a preflight for a ranged read is allowed, the same for any id', async () => {
    const f = await upload();
    for (const id of [f.file_sid, 'no-such-file']) {
      const res = await preflight(id, 'GET', 'range,if-range,if-none-match,if-modified-since');
      expect(res.status).toBe(204);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD',
        'x-content-type-options': 'nosniff',
      });
      const allowed = res.headers['access-control-allow-headers'].toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['range', 'if-range', 'if-none-match', 'if-modified-since']));
      expect(res.text).toBe('');
    }
  });

  test('a ranged answer exposes the headers a player reads', async () => {
    const f = await upload();
    const res = await pub().get(`/f/${f.file_sid}`).set('Origin', 'https://player.example').set('Range', 'bytes=0-3');
    expect(res.status).toBe(206);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = res.headers['access-control-expose-headers'].toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['content-range', 'content-length', 'accept-ranges', 'etag']));
  });
});

describe('query parameters', () => {
  let id: string;
  beforeAll(async () => {
    id = idOf((await upload()).publish_uri);
  });

  test('disposition and disposition_name', async () => {
    expect((await pub().get(`/f/${id}?disposition=attachment`)).headers['content-disposition']).toBe('attachment');
    const named = await pub()
      .get(`/f/${id}`)
      .query({ disposition: 'attachment', disposition_name: 'my call (1) é.wav' });
    expect(named.headers['content-disposition']).toBe("attachment; filename*=UTF-8''my%20call%20%281%29%20%C3%A9.wav");
    expect((await pub().get(`/f/${id}?disposition_name=a.wav`)).headers['content-disposition']).toBe(
      "inline; filename*=UTF-8''a.wav",
    );
  });

  test.each([
    ['al', 'audio/basic'],
    ['alaw', 'audio/basic'],
    ['ul', 'audio/basic'],
    ['ulaw', 'audio/basic'],
    ['flac', 'audio/flac'],
    ['g722', 'audio/G722'],
    ['mp3', 'audio/mpeg'],
    ['mp4', 'video/mp4'],
    ['ogg', 'audio/ogg'],
    ['wav', 'audio/x-wav'],
  ])('content_type=%s gives %s', async (value, header) => {
    expect((await pub().get(`/f/${id}?content_type=${value}`)).headers['content-type']).toBe(header);
  });

  test('cache headers: cache_headers wins over cache_control; None without either', async () => {
    const cc = async (q: string) => (await pub().get(`/f/${id}?${q}`)).headers['cache-control'];
    expect(await cc('')).toBe('None');
    expect(await cc('cache_headers=no')).toBe('no-cache');
    expect(await cc('cache_headers=3600')).toBe('public, max-age=3600');
    for (const v of [
      'max-age=60',
      'max-stale',
      'max-stale=30',
      'min-fresh=10',
      'no-cache',
      'no-store',
      'no-transform',
      'only-if-cached',
    ]) {
      expect(await cc(`cache_control=${encodeURIComponent(v)}`)).toBe(v);
    }
    expect(await cc('cache_control=no-store&cache_headers=120')).toBe('public, max-age=120');
  });

  test.each([
    ['disposition=sideways', 'disposition'],
    ['content_type=exe', 'content_type'],
    ['cache_headers=soon', 'cache_headers'],
    ['cache_control=public', 'cache_control'],
    ['f=aiff', 'f'],
    ['br=100', 'br'],
  ])('%s: 400 naming %s', async (q, field) => {
    const res = await pub().get(`/f/${id}?${q}`);
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.errors[0].field).toBe(field);
  });
});

describe('ranges', () => {
  let f: ApiJson;
  let lastModified: string;
  beforeAll(async () => {
    f = await upload();
    lastModified = (await pub().head(`/f/${f.file_sid}`)).headers['last-modified'];
  });
  const get = (headers: Record<string, string>) => binary(pub().get(`/f/${f.file_sid}`).set(headers));

  test.each([
    ['bytes=0-9', 0, 9],
    ['bytes=10-', 10, 35],
    ['bytes=-5', 31, 35],
    ['bytes=30-1000', 30, 35],
  ])('%s → 206 with the range headers', async (range, start, end) => {
    const res = await get({ Range: range });
    expect(res.status).toBe(206);
    expect(res.headers).toMatchObject({
      'accept-ranges': 'bytes',
      'content-range': `bytes ${start}-${end}/${DATA.length}`,
      'content-length': String(end - start + 1),
      'content-type': 'audio/x-wav',
      'content-disposition': 'inline',
      'last-modified': lastModified,
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
    });
    expect(Buffer.compare(res.body, DATA.subarray(start, end + 1))).toBe(0);
  });

  test('unsatisfiable → 416 with Content-Range: bytes */size', async () => {
    const res = await pub().get(`/f/${f.file_sid}`).set('Range', 'bytes=100-200');
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${DATA.length}`);
    expectErrorBody(res.body);
  });

  test('If-Range equal to Last-Modified → 206; otherwise 200 with the whole file', async () => {
    expect((await get({ Range: 'bytes=0-3', 'If-Range': lastModified })).status).toBe(206);
    const changed = await get({ Range: 'bytes=0-3', 'If-Range': 'Wed, 21 Oct 2015 07:28:00 GMT' });
    expect(changed.status).toBe(200);
    expect(changed.headers['content-range']).toBeUndefined();
    expect(Buffer.compare(changed.body, DATA)).toBe(0);
  });
});
