import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';
import { until } from '../support/poll';
import { createContainer, uploadRaw } from '../support/storage';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner();
});

const CONTAINER_KEYS = [
  'allow_publish',
  'allowed_classifications',
  'available_bytes_percent',
  'available_files_percent',
  'blocked_classifications',
  'container_sid',
  'date_created',
  'date_modified',
  'default_file_lifecycle_action',
  'default_file_lifecycle_ttl',
  'default_file_publish',
  'default_file_threshold_include',
  'default_file_unique',
  'encryption_key_sids',
  'external_attributes',
  'integer_key_1',
  'integer_key_2',
  'is_default',
  'name',
  'partner_sid',
  'quota_bytes',
  'quota_files',
  'string_key_1',
  'string_key_2',
  'string_key_3',
  'string_key_4',
  'threshold_action',
  'threshold_available_bytes_percent',
  'threshold_available_files_percent',
  'threshold_bytes',
  'threshold_bytes_target',
  'threshold_files',
  'threshold_files_target',
  'threshold_grace_period',
  'threshold_total_bytes',
  'threshold_total_files',
  'total_bytes',
  'total_files',
  'type',
  'unique',
];

describe('containers', () => {
  test('every partner gets a default container of 1 GiB on creation', async () => {
    const fresh = await newPartner();
    // Made as the partner is, a moment after: polled until the list holds it.
    const items = await until("the new partner's default container", 10_000, async () => {
      const list: Array<Record<string, unknown>> = (
        await http()
          .get(`${API}/storage/containers`)
          .set(...fresh.auth)
      ).body.items;
      return list.length > 0 ? list : undefined;
    });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ is_default: true, quota_bytes: 1073741824, partner_sid: fresh.partner_sid });
  });

  test('an empty body creates a container with every default', async () => {
    const res = await http()
      .post(`${API}/storage/containers`)
      .set(...p.auth)
      .send({});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(CONTAINER_KEYS);
    expect(res.body).toMatchObject({
      allow_publish: true,
      allowed_classifications: [],
      blocked_classifications: [],
      default_file_publish: 'file_sid',
      default_file_threshold_include: true,
      default_file_unique: false,
      encryption_key_sids: [],
      default_file_lifecycle_action: 'no_action',
      default_file_lifecycle_ttl: -1,
      name: 'N/A',
      quota_bytes: 1073741824,
      quota_files: 100,
      threshold_action: 'no_action',
      threshold_grace_period: 0,
      total_bytes: 0,
      total_files: 0,
      type: 'internal',
      unique: false,
      integer_key_1: null,
      string_key_4: null,
      available_bytes_percent: 100,
      available_files_percent: 100,
      threshold_available_files_percent: null,
    });
    const noBody = await http()
      .post(`${API}/storage/containers`)
      .set(...(await newPartner()).auth);
    expect(noBody.status).toBe(200);
  });

  test('at most 2 containers per partner; the partner attribute max_containers raises it', async () => {
    const q = await newPartner();
    expect(
      (
        await http()
          .post(`${API}/storage/containers`)
          .set(...q.auth)
          .send({})
      ).status,
    ).toBe(200); // + default = 2
    const third = await http()
      .post(`${API}/storage/containers`)
      .set(...q.auth)
      .send({});
    expect(third.status).toBe(422);
    expectErrorBody(third.body);
    const roomy = await newPartner({ attributes: { max_containers: 4 } });
    const codes = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        http()
          .post(`${API}/storage/containers`)
          .set(...roomy.auth)
          .send({})
          .then((r) => r.status),
      ),
    );
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 422)).toHaveLength(2);
  });

  test('validation: thresholds at most quotas, targets below thresholds, enums named', async () => {
    const q = await newPartner({ attributes: { max_containers: 10 } });
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ quota_files: 10, threshold_files: 11, threshold_action: 'reject' }, 422, 'threshold_files'],
      [{ quota_bytes: 100, threshold_bytes: 101, threshold_action: 'reject' }, 422, 'threshold_bytes'],
      [
        { threshold_files: 5, threshold_files_target: 5, threshold_action: 'delete_lru' },
        422,
        'threshold_files_target',
      ],
      [{ threshold_action: 'explode' }, 400, 'threshold_action'],
      [{ allowed_classifications: ['media', 'pictures'] }, 400, 'allowed_classifications.1'],
      [{ quota_files: -1 }, 400, 'quota_files'],
      [{ colour: 'blue' }, 400, 'colour'],
    ];
    for (const [body, status, field] of cases) {
      const res = await http()
        .post(`${API}/storage/containers`)
        .set(...q.auth)
        .send(body);
      expect([res.status, res.body.errors?.map((e: { field: string }) => e.field)]).toEqual([
        status,
        expect.arrayContaining([field]),
      ]);
    }
    const ok = await http()
      .post(`${API}/storage/containers`)
      .set(...q.auth)
      .send({ quota_files: '20', threshold_files: 10, threshold_files_target: 5, threshold_action: 'delete_lru' });
    expect(ok.status).toBe(200);
    expect(ok.body.quota_files).toBe(20);
  });

  test('get, patch, put and delete; read-only fields sent back are ignored', async () => {
    const q = await newPartner();
    const c = await createContainer(q, { name: 'calls', string_key_1: 'a' });
    const got = await http()
      .get(`${API}/storage/containers/${c.container_sid}`)
      .set(...q.auth);
    expect(got.body).toEqual(c);
    const patched = await http()
      .patch(`${API}/storage/containers/${c.container_sid}`)
      .set(...q.auth)
      .send({ threshold_action: 'reject', threshold_files: 5, total_files: 99 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      threshold_action: 'reject',
      threshold_files: 5,
      total_files: 0,
      name: 'calls',
      threshold_available_files_percent: 100,
    });
    const put = await http()
      .put(`${API}/storage/containers/${c.container_sid}`)
      .set(...q.auth)
      .send({ ...patched.body, name: 'renamed' });
    expect(put.status).toBe(200);
    expect(put.body.name).toBe('renamed');
    const partial = await http()
      .put(`${API}/storage/containers/${c.container_sid}`)
      .set(...q.auth)
      .send({ name: 'only-name' });
    expect(partial.status).toBe(400);
    const unique = await http()
      .patch(`${API}/storage/containers/${c.container_sid}`)
      .set(...q.auth)
      .send({ unique: true });
    expect(unique.status).toBe(422);
    expect(unique.body.errors[0].field).toBe('unique');
    const del = await http()
      .delete(`${API}/storage/containers/${c.container_sid}`)
      .set(...q.auth);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(
      (
        await http()
          .get(`${API}/storage/containers/${c.container_sid}`)
          .set(...q.auth)
      ).status,
    ).toBe(404);
  });

  test('delete: 409 while files remain; the default container cannot be deleted', async () => {
    const q = await newPartner();
    const c = await createContainer(q);
    const up = await uploadRaw(q, { container_sid: c.container_sid, name: 'a.txt' }, 'x');
    expect(up.status).toBe(201);
    const del = await http()
      .delete(`${API}/storage/containers/${c.container_sid}`)
      .set(...q.auth);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('conflict error');
    const list = await http()
      .get(`${API}/storage/containers?filter=is_default+eq+true`)
      .set(...q.auth);
    const def = await http()
      .delete(`${API}/storage/containers/${list.body.items[0].container_sid}`)
      .set(...q.auth);
    expect(def.status).toBe(422);
  });

  test("unique containers: the key set must be unique among the partner's unique containers", async () => {
    const q = await newPartner({ attributes: { max_containers: 5 } });
    const a = await createContainer(q, { unique: true, string_key_1: 'k', integer_key_1: 7 });
    const b = await http()
      .post(`${API}/storage/containers`)
      .set(...q.auth)
      .send({ unique: true, string_key_1: 'k', integer_key_1: 7 });
    expect(b.status).toBe(422);
    expect(b.body).toEqual({
      message: 'object validation error',
      errors: [
        {
          field: 'unique',
          message: 'container with the same set of keys already exists',
          reference_sid: a.container_sid,
        },
      ],
    });
    expect(
      (
        await http()
          .post(`${API}/storage/containers`)
          .set(...q.auth)
          .send({ unique: false, string_key_1: 'k', integer_key_1: 7 })
      ).status,
    ).toBe(200);
  });

  // External containers (probed against a real object storage): tests/api/external-containers.test.ts.

  test("another partner's container is a 404 everywhere", async () => {
    const other = await newPartner();
    const owner = await newPartner();
    const c = await createContainer(owner);
    for (const req of [
      http().get(`${API}/storage/containers/${c.container_sid}`),
      http().patch(`${API}/storage/containers/${c.container_sid}`).send({ name: 'x' }),
      http().delete(`${API}/storage/containers/${c.container_sid}`),
    ]) {
      const res = await req.set(...other.auth);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Cannot find item by SID');
    }
    const up = await uploadRaw(other, { container_sid: c.container_sid }, 'x');
    expect(up.status).toBe(422);
    expect(up.body.errors[0].field).toBe('container_sid');
  });
});
