/**
 * Lists of objects at `limit=1000` with the largest items they hold, and a single object near the
 * JSON body limit, in both run modes (the distributed mode over a nats-server with its default
 * 1 MiB max_payload, the all-in-one with the in-process bus enforcing the same limit): files with
 * every key, endpoints with many addresses, push devices with the longest tokens, a partner whose
 * attributes fill the request body. Each of these pages, and that partner's request and reply, is
 * larger than one NATS message.
 */
import { API, adminAuth, http, newPartner, type TestPartner } from '../harness/api';
import { createContainer, uploadMultipart } from '../support/storage';

const MiB = 1024 * 1024;

/** Runs `make(i)` for i in [0, n), `width` at a time. */
async function inParallel(n: number, width: number, make: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await make(next++);
    }),
  );
}

const pad = (s: string, n: number, c = 'x') => (s + c.repeat(n)).slice(0, n);

async function listAll(
  p: TestPartner,
  path: string,
): Promise<{ items: Array<Record<string, unknown>>; bytes: number }> {
  const res = await http()
    .get(`${API}${path}`)
    .set(...p.auth);
  expect(res.status).toBe(200);
  return { items: res.body.items, bytes: Buffer.byteLength(res.text) };
}

test('GET /storage/files?limit=1000: 1,000 files with every key at its longest', async () => {
  const p = await newPartner();
  const container = await createContainer(p, { name: 'large pages', quota_files: 5000 });
  await inParallel(1000, 8, async (i) => {
    const res = await uploadMultipart(
      p,
      {
        container_sid: container.container_sid,
        name: pad(`file-${i}-`, 512),
        file_access_name: pad(`access-${i}-`, 255),
        integer_key_1: i,
        integer_key_2: -i,
        string_key_1: pad(`one-${i}-`, 256),
        string_key_2: pad(`two-${i}-`, 256, 'é'),
        string_key_3: pad(`three-${i}-`, 256, '€'),
        string_key_4: pad(`four-${i}-`, 256),
        mime_type: 'text/plain; charset=utf-8',
      },
      `file ${i}`,
    );
    if (res.status !== 201) throw new Error(`upload ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  });
  const page = await listAll(
    p,
    `/storage/files?limit=1000&filter=container_sid eq "${String(container.container_sid)}"`,
  );
  expect(page.items).toHaveLength(1000);
  expect(page.bytes).toBeGreaterThan(2 * MiB);
  const keys = new Set(page.items.map((f) => f.string_key_3));
  expect(keys.size).toBe(1000);
  expect(keys.has(pad('three-999-', 256, '€'))).toBe(true);
}, 240_000);

test('GET /endpoints?limit=1000: 1,000 endpoints with 16 addresses each, their fields at their longest', async () => {
  const p = await newPartner();
  await inParallel(1000, 8, async (i) => {
    const addresses = Array.from({ length: 16 }, (_, j) => ({
      // Labels of up to 63 characters (DNS), close to the 253 a name may have.
      ip: `${pad(`h${i}x${j}-`, 60, 'h')}.${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(50)}.example.com`,
      port: 5060 + j,
      sip_username: pad(`user-${i}-${j}-`, 256),
      sip_password: pad(`pass-${i}-${j}-`, 256),
      location_sid: pad(`loc-${j}-`, 64),
    }));
    const res = await http()
      .post(`${API}/endpoints`)
      .set(...p.auth)
      .send({ type: 'third_party', name: pad(`endpoint-${i}-`, 256, '€'), addresses });
    if (res.status !== 200) throw new Error(`endpoint ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  });
  const page = await listAll(p, '/endpoints?limit=1000&filter=type eq "third_party"');
  expect(page.items).toHaveLength(1000);
  expect(page.bytes).toBeGreaterThan(10 * MiB);
  for (const e of page.items) expect(e.addresses).toHaveLength(16);
}, 240_000);

test('GET /push/devices?limit=1000: 1,000 devices with the longest tokens and versions', async () => {
  const p = await newPartner();
  const app = await http()
    .post(`${API}/push/applications`)
    .set(...p.auth)
    .send({ name: 'large pages' });
  expect(app.status).toBe(200);
  const tokens: string[] = [];
  await inParallel(1000, 8, async (i) => {
    const token = pad(`token-${i}-`, 4096, 'T');
    tokens.push(token);
    const res = await http()
      .post(`${API}/push/devices`)
      .set(...p.auth)
      .send({
        application_sid: app.body.application_sid,
        type: 'android',
        token,
        application_version: pad(`app-${i}-`, 256, 'é'),
        os_version: pad(`os-${i}-`, 256),
      });
    if (res.status !== 200) throw new Error(`device ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  });
  const page = await listAll(p, '/push/devices?limit=1000');
  expect(page.items).toHaveLength(1000);
  expect(page.bytes).toBeGreaterThan(4 * MiB);
  expect(new Set(page.items.map((d) => d.token))).toEqual(new Set(tokens));
}, 240_000);

test(
  'a single object near the JSON body limit: a partner whose attributes ' + 'fill the request, created and read back',
  async () => {
    const login = `big${Date.now().toString(36)}`;
    const body = { name: 'Near the limit', login, password: 'partner-password-1', attributes: { n: 1, note: '' } };
    // The body 16 bytes short of JSON_BODY_LIMIT (1 MiB): with the gateway's envelope, over 1 MiB on the bus.
    body.attributes.note = 'a'.repeat(MiB - 16 - Buffer.byteLength(JSON.stringify(body)));
    const { attributes } = body;
    const created = await http()
      .post(`${API}/partners`)
      .set(...adminAuth())
      .send(body);
    expect(created.status).toBe(200);
    expect(created.body.attributes).toEqual(attributes);
    const read = await http()
      .get(`${API}/partners/${String(created.body.partner_sid)}`)
      .set(...adminAuth());
    expect(read.status).toBe(200);
    expect(read.body.attributes).toEqual(attributes);
  },
  60_000,
);
