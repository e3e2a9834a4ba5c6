/**
 * @patchbay/client against the running instance (decisions §27): typed calls and typed errors, both
 * credentials, the pagination helpers in offset mode (countries) and cursor mode forward
 * (`after`, following `next`) and backward (`before`, following `previous`), a streamed upload
 * and a ranged read of its public link; and the README's example, run as it says.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createPatchbayClient, data, idempotent, ok, PatchbayApiError, type PatchbayClient } from '@patchbay/client';
import { rejection } from '../../packages/client/test/support/rejection';
import { instance, newPartner, type TestPartner } from '../harness/api';

let partner: TestPartner;
let pb: PatchbayClient;
beforeAll(async () => {
  partner = await newPartner();
  pb = createPatchbayClient({ baseUrl: instance().baseUrl, credentials: { token: partner.token } });
});

test('typed calls with a token or with Basic; an API error is a PatchbayApiError naming its fields', async () => {
  expect((await data(pb.api.GET('/oauth/whoami'))).partner_sid).toBe(partner.partner_sid);
  const basic = createPatchbayClient({
    baseUrl: instance().baseUrl,
    credentials: { login: partner.login, password: partner.password },
  });
  expect((await data(basic.api.GET('/oauth/whoami'))).login).toBe(partner.login);

  const created = await data(pb.api.POST('/endpoints', { body: { type: 'flexml', name: 'client-made' } }));
  const got = await data(
    pb.api.GET('/endpoints/{endpoint_sid}', { params: { path: { endpoint_sid: created.endpoint_sid } } }),
  );
  expect(got).toMatchObject({ name: 'client-made', type: 'flexml', partner_sid: partner.partner_sid });
  expect(
    await data(
      pb.api.DELETE('/endpoints/{endpoint_sid}', { params: { path: { endpoint_sid: created.endpoint_sid } } }),
    ),
  ).toBeUndefined();

  const bad = await rejection(data(pb.api.POST('/endpoints', { body: { type: 'flexml', capacity: -1 } })));
  expect(bad).toBeInstanceOf(PatchbayApiError);
  expect(bad.status).toBe(400);
  expect(Object.keys(bad.byField())).toContain('capacity');
  const missing = await rejection(
    data(pb.api.GET('/endpoints/{endpoint_sid}', { params: { path: { endpoint_sid: randomUUID() } } })),
  );
  expect([missing.status, missing.message]).toEqual([404, 'HTTP 404: Cannot find item by SID']);
  const anonymous = createPatchbayClient({ baseUrl: instance().baseUrl });
  expect((await rejection(data(anonymous.api.GET('/oauth/whoami')))).status).toBe(401);
});

test('offset pagination: every country once, page by page through `next`', async () => {
  const first = await data(pb.api.GET('/countries', { params: { query: { limit: 1 } } }));
  const pages = [];
  for await (const page of pb.pages('/countries', { limit: 60, order: 'iso_3166_alpha_3' })) pages.push(page);
  expect(pages.length).toBe(Math.ceil((first.total ?? 0) / 60));
  expect(pages.map((p) => p.offset)).toEqual(pages.map((_, i) => i * 60));
  const codes: string[] = [];
  for await (const country of pb.paginate('/countries', { limit: 60, filter: 'region eq "Europe"' }))
    // Items are typed as the whole object or its Selection form (field filtering): every field is here.
    codes.push(String(country.iso_3166_alpha_3));
  const europe = await data(
    pb.api.GET('/countries', { params: { query: { limit: 1, filter: 'region eq "Europe"' } } }),
  );
  expect(codes.length).toBe(europe.total);
  expect(new Set(codes).size).toBe(codes.length);
});

test('cursor pagination: after a record following `next`, before one following `previous`', async () => {
  const start = Date.UTC(2024, 0, 1);
  const records = Array.from({ length: 7 }, (_, i) => ({
    dr_sid: randomUUID(),
    date_start: new Date(start + i * 60_000).toISOString(),
    date_stop: new Date(start + i * 60_000 + 30_000).toISOString(),
  }));
  const report = await data(pb.api.POST('/calls/call_drs', { body: records }));
  expect(report).toMatchObject({ stored: 7, rejected: 0 });
  const sids = records.map((r) => r.dr_sid);

  const forward: string[] = [];
  for await (const r of pb.paginate('/calls/call_drs', { after: sids[0], limit: 2, order: 'date_stop' }))
    forward.push(String(r.dr_sid));
  expect(forward).toEqual(sids.slice(1));

  const backward: string[] = [];
  for await (const r of pb.paginate(
    '/calls/call_drs',
    { before: sids[6], limit: 2, order: 'date_stop' },
    { direction: 'previous' },
  ))
    backward.push(String(r.dr_sid));
  expect(backward).toEqual(sids.slice(0, 6).reverse());
});

test('a streamed upload, then its public link read by range', async () => {
  const containers = await data(pb.api.GET('/storage/containers'));
  const bytes = Buffer.from('0123456789'.repeat(100));
  const stream = Readable.toWeb(
    Readable.from([bytes.subarray(0, 400), bytes.subarray(400)]),
  ) as ReadableStream<Uint8Array>;
  const file = await pb.upload(
    { container_sid: containers.items[0].container_sid, name: 'digits.txt', publish: 'file_access_name' },
    stream,
    { contentType: 'application/octet-stream' },
  );
  expect(file).toMatchObject({ name: 'digits.txt', file_bytes: 1000 });
  const res = await pb.publicFile(file.publish_uri!, { disposition: 'attachment' }, { range: 'bytes=10-19' });
  expect(res.status).toBe(206);
  expect(res.headers.get('content-range')).toBe('bytes 10-19/1000');
  expect(await res.text()).toBe('0123456789');
});

test('idempotency keys: an upload whose answer is lost is sent again with its key and stored once', async () => {
  const containerSid = (await data(pb.api.GET('/storage/containers'))).items[0].container_sid;
  // The first answer is lost on the way back (a reset after the server answered): the client retries.
  const keys: string[] = [];
  const lossy = createPatchbayClient({
    baseUrl: instance().baseUrl,
    credentials: { token: partner.token },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      keys.push(request.headers.get('Idempotency-Key') ?? '');
      const response = await fetch(request);
      if (keys.length === 1) {
        await response.arrayBuffer();
        throw new TypeError('fetch failed: the connection was reset');
      }
      return response;
    },
  });
  const file = await lossy.upload(
    { container_sid: containerSid, name: 'lost-answer.bin' },
    new Uint8Array(3000).fill(9),
    { maxDelayMs: 10 },
  );
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  const named = await data(
    pb.api.GET('/storage/files', { params: { query: { filter: 'name eq "lost-answer.bin"' } } }),
  );
  expect(named.items.map((f) => f.file_sid)).toEqual([file.file_sid]);

  // Any write, with a key of the caller's: a repeat is answered from the first, replayed.
  const idempotencyKey = `client-${randomUUID()}`;
  const create = () =>
    idempotent((headers) => pb.api.POST('/endpoints', { body: { type: 'flexml', name: 'keyed' }, headers }), {
      idempotencyKey,
    });
  const first = await ok(create());
  const again = await ok(create());
  expect(again.data.endpoint_sid).toBe(first.data.endpoint_sid);
  expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
});

test("the README's client example runs as it says", async () => {
  const root = path.resolve(__dirname, '../..');
  const { stdout } = await promisify(execFile)(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'packages/client/examples/tour.ts')],
    {
      cwd: root,
      env: { ...process.env, PATCHBAY_URL: instance().baseUrl, PATCHBAY_TOKEN: partner.token },
    },
  );
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toBe(`partner ${partner.login} (${partner.partner_sid})`);
  expect(lines[lines.length - 1]).toMatch(
    /^refused: 400 validation error \{ limit: \[ 'limit must be an integer from 1 to 1000' \] \}$/,
  );
}, 60_000);
