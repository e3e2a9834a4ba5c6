/**
 * External containers as clients update and read them (decisions §41): a PATCH that does not touch
 * `external_attributes` does not probe them again; one that does keeps the stored secret where the
 * client sent the mask; counters go up on a recording and down on a delete, never below zero; quota
 * and threshold fields are null (they do not apply), and setting one is a 422 naming it.
 */
import { randomUUID } from 'node:crypto';
import { API, http, newPartner, type TestPartner } from '../harness/api';
import { record, endpoint } from '../support/media-plane';
import { tone } from '../support/media';
import { startS3rver, type S3rverHandle } from '../support/object-stores';
import type { ApiJson } from '../support/api-json';

const SECRET = `s3-secret-${randomUUID()}`;
let s3: S3rverHandle;
let p: TestPartner;

beforeAll(async () => {
  s3 = await startS3rver(['fidelity']);
  p = await newPartner({ attributes: { max_containers: 10 } });
}, 60_000);
afterAll(async () => {
  await s3?.stop();
});

const attributes = () => ({
  bucket: 'fidelity',
  endpoint: s3.endpoint,
  prefix: 'a',
  credentials: { access_key_id: 'S3RVER', secret_access_key: SECRET },
});

async function external(): Promise<ApiJson> {
  const res = await http()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .send({ type: 'aws_s3', name: 'calls', external_attributes: attributes() });
  expect(res.status).toBe(200);
  return res.body;
}

const containerOf = async (sid: string): Promise<ApiJson> =>
  (
    await http()
      .get(`${API}/storage/containers/${sid}`)
      .set(...p.auth)
  ).body;

const patch = (sid: string, body: Record<string, unknown>) =>
  http()
    .patch(`${API}/storage/containers/${sid}`)
    .set(...p.auth)
    .send(body);

test('a PATCH without external_attributes changes the name and probes nothing', async () => {
  const c = await external();
  const renamed = await patch(c.container_sid, { name: 'renamed' });
  expect(renamed.status).toBe(200);
  expect(renamed.body.name).toBe('renamed');
  expect(renamed.body.external_attributes.credentials).toEqual({
    access_key_id: '********',
    secret_access_key: '********',
  });
  const again = await patch(c.container_sid, { default_file_publish: 'no' });
  expect(again.status).toBe(200);
});

test('a PATCH of external_attributes with the masked secret keeps the stored one (probed with it)', async () => {
  const c = await external();
  const moved = await patch(c.container_sid, {
    external_attributes: { ...c.external_attributes, prefix: 'b' },
  });
  expect(moved.status).toBe(200);
  expect(moved.body.external_attributes).toMatchObject({ prefix: 'b', credentials: { secret_access_key: '********' } });
  const ep = await endpoint(p, 'flexml', { container_sid: c.container_sid });
  expect((await record({ endpoint_sid: ep.endpoint_sid })).status).toBe(201);
  // An empty secret is refused, naming the field; nothing changed.
  const blank = await patch(c.container_sid, {
    external_attributes: { ...c.external_attributes, credentials: { access_key_id: 'S3RVER', secret_access_key: '' } },
  });
  expect(blank.status).toBe(422);
  expect(blank.body.errors[0].field).toBe('external_attributes');
  expect((await containerOf(c.container_sid)).external_attributes.prefix).toBe('b');
}, 60_000);

test('quota and threshold fields are null for an external container; setting one is a 422 naming it', async () => {
  const c = await external();
  for (const field of [
    'quota_bytes',
    'quota_files',
    'threshold_action',
    'threshold_bytes',
    'threshold_files',
    'threshold_bytes_target',
    'threshold_files_target',
    'threshold_grace_period',
    'threshold_total_bytes',
    'threshold_total_files',
    'available_bytes_percent',
    'available_files_percent',
    'threshold_available_bytes_percent',
    'threshold_available_files_percent',
  ])
    expect({ field, value: c[field] }).toEqual({ field, value: null });
  const quota = await patch(c.container_sid, { quota_files: 5 });
  expect(quota.status).toBe(422);
  expect(quota.body.errors[0].field).toBe('quota_files');
  const created = await http()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .send({ type: 'aws_s3', external_attributes: attributes(), threshold_action: 'reject', threshold_files: 2 });
  expect(created.status).toBe(422);
  expect(created.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
    'threshold_action',
    'threshold_files',
  ]);
  // A client that sends the container back as it read it (nulls included) is fine.
  const put = await http()
    .put(`${API}/storage/containers/${c.container_sid}`)
    .set(...p.auth)
    .send({ ...c, name: 'whole' });
  expect(put.status).toBe(200);
  expect(put.body).toMatchObject({ name: 'whole', quota_files: null });
  // An internal container still has its numbers, and null is not a quota there.
  const internal = await http()
    .put(`${API}/storage/containers/${c.container_sid}`)
    .set(...p.auth)
    .send({ ...c, type: 'internal' });
  expect(internal.status).toBe(422);
  const plain = await http()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .send({ quota_files: null });
  expect(plain.status).toBe(422);
  expect(plain.body.errors[0].field).toBe('quota_files');
});

test('counters go up with each recording and down with each delete, never below zero', async () => {
  const c = await external();
  const ep = await endpoint(p, 'flexml', { container_sid: c.container_sid });
  const first = await record({ endpoint_sid: ep.endpoint_sid }, tone('wav', 1));
  const second = await record({ endpoint_sid: ep.endpoint_sid }, tone('wav', 2));
  expect([first.status, second.status]).toEqual([201, 201]);
  const full = await containerOf(c.container_sid);
  expect(full.total_files).toBe(2);
  expect(full.total_bytes).toBe(first.body.file_bytes + second.body.file_bytes);
  for (const f of [first.body, second.body])
    expect(
      (
        await http()
          .delete(`${API}/storage/files/${f.file_sid}`)
          .set(...p.auth)
      ).status,
    ).toBe(204);
  const empty = await containerOf(c.container_sid);
  expect({ files: empty.total_files, bytes: empty.total_bytes }).toEqual({ files: 0, bytes: 0 });
  expect(empty.threshold_total_files).toBeNull();
}, 60_000);
