/**
 * The outbound-address guard through the public API (docs/security.md, "Outbound addresses"), with
 * EXTERNAL_STORAGE_ALLOW_PRIVATE and CALLBACK_ALLOW_PRIVATE off (their default): ten spellings of
 * this machine as an external container's endpoint, for each storage type, on create and on update,
 * are refused with one message, and a TCP server on every local address that counts connections
 * sees none; provider naming rules refuse a bucket `..` and a climbing prefix; a container made
 * while private addresses were allowed can no longer be read once they are not; a `callback_url`
 * that is not http(s) or is private is refused when it is set. One instance of its own, started
 * allowed (to make that container), then restarted guarded.
 */
import request from 'supertest';
import { expectErrorBody, mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { tone } from '../support/media';
import { startS3rver, type S3rverHandle } from '../support/object-stores';
import { startConnectionRecorder, type TcpListener } from '../support/tcp-listeners';

const API = '/core/v2';
const DEV_ACCOUNT = 'devstoreaccount1';
const DEV_KEY = Buffer.alloc(64, 1).toString('base64');
const REFUSED = [
  { field: 'external_attributes.endpoint', message: 'this address is not allowed', reference_sid: null },
];

/** Ten ways to write this machine's address (five common spellings, and five less common ones). */
const SPELLINGS = [
  '127.0.0.1',
  '0.0.0.0',
  'localhost',
  '2130706433',
  '[::ffff:127.0.0.1]',
  '0x7f.1',
  '0177.0.0.1',
  '127.1',
  '[::1]',
  '[::]',
];

let pb: PatchbayInstance;
let s3: S3rverHandle;
let recorder: TcpListener;
let auth: [string, string];
let kept: { container_sid: string; external_attributes: Record<string, unknown> };
let keptFile: string;
const api = () => request(pb.origin);
const admin = (): [string, string] => ['Authorization', `Bearer ${pb.token}`];

/** External attributes of `type` aimed at `host` on the recorder's port. */
function aimedAt(type: string, host: string): Record<string, unknown> {
  const endpoint = `http://${host}:${recorder.port}`;
  if (type === 'azure_blob')
    return {
      container: 'calls',
      endpoint: `${endpoint}/${DEV_ACCOUNT}`,
      credentials: { account_name: DEV_ACCOUNT, account_key: DEV_KEY },
    };
  if (type === 'gcp_storage') return { bucket: 'media', endpoint };
  return { bucket: 'recordings', endpoint, credentials: { access_key_id: 'S3RVER', secret_access_key: 'x' } };
}

beforeAll(async () => {
  [s3, recorder] = await Promise.all([startS3rver(['kept']), startConnectionRecorder()]);
  const allowed = await startPatchbay(mode(), { EXTERNAL_STORAGE_ALLOW_PRIVATE: 'true' });
  pb = allowed;
  const login = `guard${Date.now().toString(36)}`;
  await api()
    .post(`${API}/partners`)
    .set(...admin())
    .send({ name: 'guard', login, password: 'partner-password-1', attributes: { max_containers: 10 } });
  const tok = await api()
    .post(`${API}/oauth/token`)
    .type('form')
    .send({ grant_type: 'password', username: login, password: 'partner-password-1' });
  auth = ['Authorization', `Bearer ${tok.body.access_token}`];
  const made = await api()
    .post(`${API}/storage/containers`)
    .set(...auth)
    .send({
      type: 'aws_s3',
      external_attributes: {
        bucket: 'kept',
        endpoint: s3.endpoint,
        credentials: { access_key_id: 'S3RVER', secret_access_key: 'x' },
      },
    });
  expect(made.status).toBe(200);
  kept = made.body;
  const ep = await api()
    .post(`${API}/endpoints`)
    .set(...auth)
    .send({ type: 'flexml', properties: { container_sid: kept.container_sid } });
  const rec = await api()
    .post(`${API}/media/recordings?endpoint_sid=${ep.body.endpoint_sid}`)
    .set(...admin())
    .set('Content-Type', 'audio/wav')
    .send(tone('wav', 1));
  expect(rec.status).toBe(201);
  keptFile = rec.body.file_sid;
  await allowed.kill();
  pb = await allowed.restart({ EXTERNAL_STORAGE_ALLOW_PRIVATE: 'false', CALLBACK_ALLOW_PRIVATE: 'false' });
}, 180_000);
afterAll(async () => {
  await Promise.all([pb?.stop(), s3?.stop(), recorder?.stop()]);
}, 60_000);

test('create: every spelling, for every storage type, is refused with one message and never connected to', async () => {
  const answers = new Set<string>();
  for (const type of ['aws_s3', 'gcp_storage', 'azure_blob'])
    for (const host of SPELLINGS) {
      const res = await api()
        .post(`${API}/storage/containers`)
        .set(...auth)
        .send({ type, external_attributes: aimedAt(type, host) });
      expect({ type, host, status: res.status }).toEqual({ type, host, status: 422 });
      expectErrorBody(res.body);
      answers.add(JSON.stringify(res.body.errors));
    }
  expect([...answers]).toEqual([JSON.stringify(REFUSED)]);
  expect(recorder.connections()).toBe(0);
  const listed = await api()
    .get(`${API}/storage/containers`)
    .set(...auth);
  expect(listed.body.items.map((c: { type: string }) => c.type).sort()).toEqual(['aws_s3', 'internal']);
}, 120_000);

test(
  'update: every spelling is refused the same way, never connected to, ' + 'and the container is kept as it was',
  async () => {
    const answers = new Set<string>();
    for (const host of SPELLINGS) {
      const res = await api()
        .patch(`${API}/storage/containers/${kept.container_sid}`)
        .set(...auth)
        .send({ external_attributes: { ...kept.external_attributes, endpoint: `http://${host}:${recorder.port}` } });
      expect({ host, status: res.status }).toEqual({ host, status: 422 });
      answers.add(JSON.stringify(res.body.errors));
    }
    expect([...answers]).toEqual([JSON.stringify(REFUSED)]);
    expect(recorder.connections()).toBe(0);
    const now = await api()
      .get(`${API}/storage/containers/${kept.container_sid}`)
      .set(...auth);
    expect(now.body.external_attributes.endpoint).toBe(s3.endpoint);
  },
  60_000,
);

test(
  "names by the provider's rules: a bucket '..' and a climbing prefix " + 'are refused before anything is sent',
  async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['aws_s3', { ...aimedAt('aws_s3', '127.0.0.1'), bucket: '..' }, 'external_attributes.bucket'],
      ['gcp_storage', { ...aimedAt('gcp_storage', '127.0.0.1'), bucket: 'UP..' }, 'external_attributes.bucket'],
      ['azure_blob', { ...aimedAt('azure_blob', '127.0.0.1'), container: 'a--b' }, 'external_attributes.container'],
      ['aws_s3', { ...aimedAt('aws_s3', '127.0.0.1'), prefix: '../other' }, 'external_attributes.prefix'],
      ['aws_s3', { ...aimedAt('aws_s3', '127.0.0.1'), prefix: '/abs' }, 'external_attributes.prefix'],
    ];
    for (const [type, attrs, field] of cases) {
      const res = await api()
        .post(`${API}/storage/containers`)
        .set(...auth)
        .send({ type, external_attributes: attrs });
      expect({
        type,
        attrs,
        status: res.status,
        fields: res.body.errors.map((e: { field: string }) => e.field),
      }).toEqual({ type, attrs, status: 422, fields: [field] });
    }
    expect(recorder.connections()).toBe(0);
  },
);

test(
  'a store on a private address, saved while that was allowed, is no ' + 'longer read from (503, not its bytes)',
  async () => {
    const data = await api()
      .get(`${API}/storage/files/${keptFile}/data`)
      .set(...auth);
    expect(data.status).toBe(503);
    expectErrorBody(data.body);
    expect(data.body.message).toBe('this address is not allowed');
    expect((await request(pb.storageUrl).get(`/f/${keptFile}`)).status).toBe(503);
  },
);

test(
  'callback_url: not http(s), or a private address however written, is ' + 'refused when set (422 naming it)',
  async () => {
    const voicemail = (callback_url: string) =>
      api()
        .post(`${API}/endpoints`)
        .set(...auth)
        .send({ type: 'voicemail', properties: { callback_url } });
    for (const url of ['file:///etc/passwd', 'gopher://example.com/_x', 'javascript:alert(1)']) {
      const res = await voicemail(url);
      expect({ url, status: res.status, errors: res.body.errors }).toEqual({
        url,
        status: 422,
        errors: [
          {
            field: 'properties.callback_url',
            message: 'callback_url must be an http or https URL',
            reference_sid: null,
          },
        ],
      });
    }
    for (const host of SPELLINGS) {
      const res = await voicemail(`http://${host}:${recorder.port}/hook`);
      expect({ host, status: res.status, errors: res.body.errors }).toEqual({
        host,
        status: 422,
        errors: [{ field: 'properties.callback_url', message: 'this address is not allowed', reference_sid: null }],
      });
    }
    expect(recorder.connections()).toBe(0);
  },
);
