/**
 * Never a 500 for bad input: every JSON route of the gateway's route table, called with hostile
 * bodies, path parameters and list parameters, answers a 4xx (or a 2xx where the input happens to
 * be acceptable) with the standard error body — never a 5xx, never a hang. Seeded fast-check values
 * add shapes nobody thought of; a failure names the route and the input.
 */
import fc from 'fast-check';
import { ROUTES } from '../../services/gateway/src/routes/route-table';
import request from 'supertest';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { API, adminAuth, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { createContainer, uploadMultipart, uploadRaw } from '../support/storage';

const uploadMultipartAs = (owner: TestPartner, fileObject: Record<string, unknown>) =>
  uploadMultipart(owner, fileObject, 'x', 'a.txt');

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner();
});

const GARBAGE_IDS = [
  'x',
  '00000000-0000-0000-0000-000000000000',
  '%24where',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(300),
  '%00',
  '%F0%9F%98%80',
  '1e309',
  '-1',
];
const BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  true,
  {},
  { name: { $gt: '' } },
  { $set: { partner_sid: 'other' } },
  { __proto__: { admin: true } },
  { constructor: { prototype: { polluted: true } } },
  { name: 'x'.repeat(100_000) },
  { limit: -1, offset: 'a' },
  { recipients: 'all' },
  { recipients: Array.from({ length: 1000 }, (_, i) => `d${i}`) },
  { addresses: [{ ip: '999.1.1.1' }] },
  { addresses: 'nope' },
  { attributes: [1, 2] },
  { scopes: ['*'] },
  { available_scopes: 'everything' },
  // eslint-disable-next-line no-loss-of-precision -- on purpose: JSON's 1e309 parses as Infinity
  { max_size: 1e309 },
  { max_size: -5 },
  { threshold: '10%' },
  { data: { nested: { deep: { deeper: [[[[{}]]]] } } } },
  { ttl: 'forever' },
  { type: 'rocket' },
  { google_credentials: 'bm90IGpzb24=' },
  { apns_p12: '!!!', apns_p12_password: 1 },
  { status: 'godmode' },
  { password: '' },
  { login: '' },
];
const QUERIES = [
  'limit=-1',
  'limit=abc',
  'limit=100000',
  'offset=-5',
  'offset=1e309',
  'order=%27%3B+DROP',
  'order=-',
  'filter=((',
  'filter=name+eq',
  'filter=name+eq+%27x%27+and',
  'filter=' + encodeURIComponent('a.b.c.d.e.f eq 1'),
  'filter=' + encodeURIComponent("name regex '(a+)+$'"),
  'fields=%24where',
  'fields=a,,b',
  'after=nope',
  'before=nope&after=nope',
  'with_related=maybe',
  'reuse=sometimes',
  'container_sid=%00',
  'limit=1&limit=2',
];

/** The route's path with every `:param` replaced. */
const fill = (path: string, id: string) => path.replace(/:([a-z_0-9]+)/g, () => id);

interface Finding {
  call: string;
  status: number;
  body: string;
}

/** Every status seen (checked by the last test), so sweeps that only met a closed door cannot pass. */
const seen = new Map<number, number>();

/** A request by method name (supertest has one function per method). */
const requestFor = (method: string, url: string) => http()[method as 'get'](url);

async function call(method: string, path: string, body?: unknown): Promise<Finding | null> {
  const req = requestFor(method, `${API}${path}`)
    .set(...p.auth)
    .timeout(15_000);
  const res = await (body === undefined ? req : req.set('Content-Type', 'application/json').send(JSON.stringify(body)));
  seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
  if (res.status >= 500)
    return {
      call: `${method.toUpperCase()} ${path} ${body === undefined ? '' : JSON.stringify(body).slice(0, 120)}`,
      status: res.status,
      body: res.text.slice(0, 200),
    };
  if (res.status >= 400) {
    const b = res.body as { message?: unknown; errors?: unknown };
    if (typeof b?.message !== 'string' || !Array.isArray(b.errors))
      return {
        call: `${method.toUpperCase()} ${path}`,
        status: res.status,
        body: `not the error body: ${res.text.slice(0, 200)}`,
      };
  }
  return null;
}

async function sweep(calls: Array<() => Promise<Finding | null>>): Promise<Finding[]> {
  const found: Finding[] = [];
  // A few at a time: the point is the answers, not load.
  for (let i = 0; i < calls.length; i += 8) {
    for (const f of await Promise.all(calls.slice(i, i + 8).map((c) => c()))) if (f) found.push(f);
  }
  return found;
}

/** Routes that read a JSON body (streamed routes are swept apart, with bodies of their own kinds). */
const withBody = ROUTES.filter(
  (r) => r.method !== 'get' && r.method !== 'delete' && r.body !== 'form' && r.body !== 'stream' && r.auth !== false,
);

test('hostile path parameters on every route: no 5xx', async () => {
  const calls = ROUTES.filter((r) => r.path.includes(':') && r.auth !== false).flatMap((r) =>
    GARBAGE_IDS.map(
      (id) => () => call(r.method, fill(r.path, id), r.method === 'get' || r.method === 'delete' ? undefined : {}),
    ),
  );
  expect(await sweep(calls)).toEqual([]);
}, 120_000);

test('hostile JSON bodies on every write route: no 5xx, errors in the standard body', async () => {
  const calls = withBody.flatMap((r) => BODIES.map((b) => () => call(r.method, fill(r.path, 'x'), b)));
  expect(await sweep(calls)).toEqual([]);
}, 120_000);

test('hostile list parameters on every list route: no 5xx', async () => {
  const lists = ROUTES.filter((r) => r.method === 'get' && !r.path.includes(':') && r.auth !== false);
  const calls = lists.flatMap((r) => QUERIES.map((q) => () => call('get', `${r.path}?${q}`)));
  expect(await sweep(calls)).toEqual([]);
}, 120_000);

test('arbitrary JSON values (seeded) on every write route: no 5xx', async () => {
  const values = fc.sample(fc.jsonValue({ maxDepth: 4 }), { numRuns: 12, seed: 20261121 });
  const calls = withBody.flatMap((r) => values.map((v) => () => call(r.method, fill(r.path, 'x'), v)));
  expect(await sweep(calls)).toEqual([]);
}, 120_000);

/** A raw body with a content type, on a streaming route (uploads, bulk ingest). */
async function raw(path: string, contentType: string, body: string | Buffer): Promise<Finding | null> {
  const res = await http()
    .post(`${API}${path}`)
    .set(...p.auth)
    .set('Content-Type', contentType)
    .timeout(15_000)
    .send(body);
  seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
  return res.status >= 500
    ? {
        call: `POST ${path} (${contentType}) ${String(body).slice(0, 80)}`,
        status: res.status,
        body: res.text.slice(0, 200),
      }
    : null;
}

test('hostile uploads and bulk ingests (streamed routes): no 5xx', async () => {
  const uploads = [
    '',
    'container_sid=x',
    'container_sid=x&name=..%2F..%2Fetc%2Fpasswd',
    'name=a&type=rocket',
    'name=a&type=audio&desired_format=exe',
    'name=a&desired_bitrate=-1',
    'name=a&unique=maybe',
    'name=a&publish=everyone',
    'name=' + 'n'.repeat(5000),
    'name=a&lifecycle_ttl=abc',
  ];
  const calls: Array<() => Promise<Finding | null>> = [
    ...uploads.map(
      (q) => () => raw(`/storage/files?${q}`, 'application/octet-stream', Buffer.from('RIFF....WAVEfmt ')),
    ),
    ...uploads
      .slice(0, 3)
      .map((q) => () => raw(`/storage/files?${q}`, 'multipart/form-data; boundary=nope', '--nope\r\nbroken')),
    () => raw('/storage/files?name=a', 'multipart/form-data', 'no boundary at all'),
    ...['/calls/call_drs', '/sms/message_drs'].flatMap((path) => [
      () => raw(path, 'application/json', '{"not": "an array"'),
      () => raw(path, 'application/json', '[1, "two", null, {"dr_sid": {"$ne": 1}}]'),
      () => raw(path, 'application/x-ndjson', '{}\n{broken\n\n[]\n"x"\n'),
      () => raw(path, 'application/x-ndjson', `{"dr_sid": "${'d'.repeat(100_000)}"}\n`),
      () => raw(path, 'text/csv', 'a,b,c'),
    ]),
  ];
  expect(await sweep(calls)).toEqual([]);
  // And a malformed multipart body is the client's error, named as such.
  const res = await http()
    .post(`${API}/storage/files`)
    .set(...p.auth)
    .set('Content-Type', 'multipart/form-data; boundary=nope')
    .send('--nope\r\nbroken');
  expect(res.status).toBe(400);
  expect(res.body.errors[0]).toMatchObject({ field: 'data' });
  expect(res.body.errors[0].message).toMatch(/malformed/);
}, 120_000);

test('hostile public downloads (file-server): no 5xx', async () => {
  // A partner of its own: the sweeps above may have used up p's containers.
  const owner = await newPartner();
  const container = await createContainer(owner);
  const upload = await uploadRaw(
    owner,
    { container_sid: container.container_sid, name: 'pub.bin' },
    Buffer.alloc(1000, 7),
  );
  expect(upload.status).toBe(201);
  expect(upload.body.publish_uri).toEqual(expect.any(String));
  const ids = [upload.body.file_sid as string, ...GARBAGE_IDS];
  const params = [
    '',
    'f=exe',
    'f=',
    'br=abc',
    'br=-1',
    'br=1e309',
    'cache=-1',
    'cache=never',
    'disposition=evil',
    'f=mp3&br=8',
    'name=%0d%0aSet-Cookie:x',
    'content_type=%0d%0ax',
  ];
  const ranges = [
    undefined,
    'bytes=abc',
    'bytes=5-1',
    'bytes=-0',
    'bytes=0-0,0-0,0-0',
    'bytes=999999999999999999999-',
    'items=0-1',
  ];
  const calls = ids.flatMap((id) =>
    params.flatMap((q) =>
      ranges.map((range) => async (): Promise<Finding | null> => {
        const req = request(instance().storageUrl).get(`/f/${id}?${q}`).timeout(15_000);
        const res = await (range ? req.set('Range', range) : req);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        if (res.status >= 500)
          return { call: `GET /f/${id}?${q} Range: ${range}`, status: res.status, body: res.text?.slice(0, 200) ?? '' };
        if (Object.keys(res.headers).some((h) => h.toLowerCase() === 'set-cookie'))
          return { call: `GET /f/${id}?${q}`, status: res.status, body: 'header injection' };
        return null;
      }),
    ),
  );
  expect(await sweep(calls)).toEqual([]);
}, 120_000);

/** A body `[[[…]]]` nested `depth` levels: ~8 KB at 4,000 levels overflowed the bus codec's JSON.stringify. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

test('path segments that do not percent-decode are a 400 naming the path, on the API and the file server', async () => {
  for (const path of [
    '/endpoints/%ZZ',
    '/storage/files/%C0%AF',
    '/storage/containers/%E0%A4%A',
    '/push/devices/%',
    '/calls/call_drs/%FF',
  ]) {
    const res = await http()
      .get(`${API}${path}`)
      .set(...p.auth);
    seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
    expect({ path, status: res.status }).toEqual({ path, status: 400 });
    expectErrorBody(res.body);
    expect(res.body.errors[0]).toMatchObject({ field: 'path' });
  }
  const pub = await request(instance().storageUrl).get('/f/%C0%AF');
  expect(pub.status).toBe(400);
  expectErrorBody(pub.body);
});

test(
  'JSON nested thousands of levels deep: 400 on every write route and in ' +
    'every JSON the gateway reads; GET routes never parse a body',
  async () => {
    const deep = nested(4000);
    const findings = await sweep(
      withBody.map((r) => async () => {
        // As the bootstrap partner, so no scope check answers before the body is read.
        const res = await requestFor(r.method, `${API}${fill(r.path, 'x')}`)
          .set(...adminAuth())
          .set('Content-Type', 'application/json')
          .send(deep);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        return res.status === 400 && res.body.message === 'JSON nested more than 64 levels deep'
          ? null
          : { call: `${r.method} ${r.path}`, status: res.status, body: res.text.slice(0, 200) };
      }),
    );
    expect(findings).toEqual([]);
    // Just inside the limit is fine (a 4xx from the service at worst, never a 5xx).
    const edge = await http()
      .post(`${API}/storage/containers`)
      .set(...p.auth)
      .set('Content-Type', 'application/json')
      .send(`{"name": ${nested(63)}}`);
    expect(edge.status).toBe(400);
    expect(edge.body.errors[0]).toMatchObject({ field: 'name' });
    // A GET with a body it does not use answers as without one.
    const list = await http()
      .get(`${API}/storage/containers`)
      .set(...p.auth)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(list.status).toBe(200);
    // Streamed bodies: a record of an ingest, the file_object of a multipart upload.
    const ingest = await http()
      .post(`${API}/calls/call_drs`)
      .set(...p.auth)
      .set('Content-Type', 'application/json')
      .send(`[{"dr_sid": ${nested(4000)}}]`);
    expect(ingest.status).toBe(200);
    expect(ingest.body).toMatchObject({ received: 1, rejected: 1, stored: 0 });
    expect(ingest.body.errors[0].message).toMatch(/nest/);
    const c = await createContainer(await newPartner());
    const multipart = await http()
      .post(`${API}/storage/files`)
      .set(...p.auth)
      .field('file_object', `{"container_sid": "${c.container_sid}", "x": ${nested(4000)}}`)
      .attach('data', Buffer.from('abc'), 'a.txt');
    expect(multipart.status).toBe(400);
    expect(multipart.body.errors[0]).toMatchObject({ field: 'file_object' });
  },
  60_000,
);

test(
  'Content-Encoding that does not match the body: 400 naming ' +
    'Content-Encoding; an unknown coding 415; a real gzip or zstd upload ' +
    'is stored decoded',
  async () => {
    const owner = await newPartner();
    const c = await createContainer(owner);
    const calls: Array<[string, string, string, string]> = [];
    for (const coding of ['gzip', 'deflate', 'br', 'zstd']) {
      calls.push(['/storage/containers', 'application/json', coding, '{"name": "plain"}']);
      calls.push(['/oauth/token', 'application/x-www-form-urlencoded', coding, 'grant_type=password']);
      calls.push(['/calls/call_drs', 'application/json', coding, '[]']);
      calls.push([
        `/storage/files?container_sid=${c.container_sid}&name=a.txt`,
        'application/octet-stream',
        coding,
        'not compressed at all',
      ]);
    }
    for (const [path, type, coding, body] of calls) {
      const res = await http()
        .post(`${API}${path}`)
        .set(...owner.auth)
        .set('Content-Type', type)
        .set('Content-Encoding', coding)
        .send(body);
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      expect({ path, coding, status: res.status }).toEqual({ path, coding, status: 400 });
      expectErrorBody(res.body);
    }
    const unknown = await http()
      .post(`${API}/storage/containers`)
      .set(...owner.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress')
      .send('{}');
    expect(unknown.status).toBe(415);
    const multipart = await http()
      .post(`${API}/storage/files`)
      .set(...owner.auth)
      .set('Content-Encoding', 'gzip')
      .field('file_object', JSON.stringify({ container_sid: c.container_sid }))
      .attach('data', Buffer.from('abc'), 'a.txt');
    expect(multipart.status).toBe(415);
    // Nothing half-written: the refused uploads left no file.
    expect(
      (
        await http()
          .get(`${API}/storage/containers/${c.container_sid}`)
          .set(...owner.auth)
      ).body.total_files,
    ).toBe(0);
    const gz = await http()
      .post(`${API}/storage/files?container_sid=${c.container_sid}&name=z.txt`)
      .set(...owner.auth)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Encoding', 'gzip')
      .send(gzipSync(Buffer.from('hello, decoded')));
    expect(gz.status).toBe(201);
    expect(gz.body.file_bytes).toBe(14);
    const data = await http()
      .get(`${API}/storage/files/${gz.body.file_sid}/data`)
      .set(...owner.auth)
      .buffer(true)
      .parse((res, cb) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => cb(null, Buffer.concat(parts)));
      });
    expect((data.body as Buffer).toString()).toBe('hello, decoded');
    const zst = await http()
      .post(`${API}/storage/files?container_sid=${c.container_sid}&name=z.zst.txt`)
      .set(...owner.auth)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Encoding', 'zstd')
      .send(zstdCompressSync(Buffer.from('hello, zstd decoded')));
    expect(zst.status).toBe(201);
    expect(zst.body.file_bytes).toBe(19);
    const containers = await http()
      .post(`${API}/storage/containers`)
      .set(...(await newPartner()).auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'zstd')
      // As is: superagent would otherwise serialise a Buffer sent as JSON (its typings expect a string).
      .serialize(((body: Buffer) => body) as unknown as (body: unknown) => string)
      .send(zstdCompressSync(Buffer.from('{"name": "zstd-json"}')));
    expect({ status: containers.status, body: containers.body }).toMatchObject({
      status: 200,
      body: { name: 'zstd-json' },
    });
  },
);

test('a mime_type with CR, LF, NUL or non-ASCII is refused at upload and on update, naming mime_type', async () => {
  const owner = await newPartner();
  const c = await createContainer(owner);
  for (const bad of [
    'text/plain\r\nX-Evil: 1',
    'text/plain\nX: 1',
    'audio/mpeg\u0000',
    'text/plaïn',
    'audio/mpeg extra',
  ]) {
    const raw = await http()
      .post(`${API}/storage/files?container_sid=${c.container_sid}&name=a.txt&mime_type=${encodeURIComponent(bad)}`)
      .set(...owner.auth)
      .set('Content-Type', 'application/octet-stream')
      .send('x');
    expect({ bad, status: raw.status, field: raw.body.errors?.[0]?.field }).toEqual({
      bad,
      status: 400,
      field: 'mime_type',
    });
    const multipart = await uploadMultipartAs(owner, { container_sid: c.container_sid, mime_type: bad });
    expect({ bad, status: multipart.status, field: multipart.body.errors?.[0]?.field }).toEqual({
      bad,
      status: 400,
      field: 'mime_type',
    });
  }
  const ok = await uploadRaw(
    owner,
    { container_sid: c.container_sid, name: 'ok.txt', mime_type: 'text/plain; charset=utf-8' },
    'x',
  );
  expect(ok.status).toBe(201);
  const patch = await http()
    .patch(`${API}/storage/files/${ok.body.file_sid}`)
    .set(...owner.auth)
    .send({ mime_type: 'text/plain\r\nSet-Cookie: a=b' });
  expect(patch.status).toBe(400);
  expect(patch.body.errors[0]).toMatchObject({ field: 'mime_type' });
  const changed = await http()
    .patch(`${API}/storage/files/${ok.body.file_sid}`)
    .set(...owner.auth)
    .send({ mime_type: 'text/csv' });
  expect(changed.body.mime_type).toBe('text/csv');
  const pub = await request(instance().storageUrl).get(`/f/${ok.body.file_sid}`);
  expect(pub.status).toBe(200);
  expect(pub.headers['content-type']).toBe('text/csv');
});

test(
  'property: percent-encoded path segments (valid or not) and nested ' + 'bodies of any depth never get a 5xx',
  async () => {
    const segment = fc
      .array(
        fc.oneof(
          fc.constantFrom('%', '%Z', '%ZZ', '%C0%AF', '%E0%A4', '%FF', '%00', '%2F', '%2E%2E', '%25', '%F0%9F%98%80'),
          fc.string({ minLength: 1, maxLength: 3 }).map(encodeURIComponent),
        ),
        { minLength: 1, maxLength: 6 },
      )
      .map((parts) => parts.join(''));
    const paths = fc.sample(segment, { numRuns: 40, seed: 20261124 });
    const routes = ROUTES.filter((r) => r.method === 'get' && r.path.includes(':') && r.auth !== false);
    const pathCalls = paths.map((id, i) => () => call('get', fill(routes[i % routes.length].path, id)));
    const bodies = fc.sample(
      fc
        .integer({ min: 0, max: 3000 })
        .chain((depth) =>
          fc.constantFrom(nested(depth), `{"name": ${nested(depth)}}`, `{"a":`.repeat(depth) + '1' + '}'.repeat(depth)),
        ),
      { numRuns: 24, seed: 20261124 },
    );
    const bodyCalls = bodies.map((body, i) => async (): Promise<Finding | null> => {
      const r = withBody[i % withBody.length];
      const res = await requestFor(r.method, `${API}${fill(r.path, 'x')}`)
        .set(...p.auth)
        .set('Content-Type', 'application/json')
        .send(body);
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      return res.status >= 500
        ? { call: `${r.method} ${r.path} ${body.slice(0, 60)}…`, status: res.status, body: res.text.slice(0, 200) }
        : null;
    });
    expect(await sweep([...pathCalls, ...bodyCalls])).toEqual([]);
    const pubs = paths.map((id) => async (): Promise<Finding | null> => {
      const res = await request(instance().storageUrl).get(`/f/${id}`);
      return res.status >= 500 ? { call: `GET /f/${id}`, status: res.status, body: res.text.slice(0, 200) } : null;
    });
    expect(await sweep(pubs)).toEqual([]);
  },
  120_000,
);

test('the sweeps reached the services: no 401, and hundreds of validation answers (runs last)', () => {
  expect(seen.get(401) ?? 0).toBe(0);
  expect((seen.get(404) ?? 0) + (seen.get(422) ?? 0) + (seen.get(400) ?? 0)).toBeGreaterThan(500);
});
