import { API, http, newPartner, type TestPartner } from '../harness/api';
import { createContainer, listFiles, uploadRaw } from '../support/storage';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 50 } });
});

const container = (sid: string) =>
  http()
    .get(`${API}/storage/containers/${sid}`)
    .set(...p.auth)
    .then((r) => r.body);

describe('refusals leave nothing behind', () => {
  test('classification blocked or not allowed: 422, no record, no counts', async () => {
    const c = await createContainer(p, { blocked_classifications: ['executable'] });
    const exe = await uploadRaw(p, { container_sid: c.container_sid, name: 'run.exe' }, 'MZ....');
    expect(exe.status).toBe(422);
    expect(exe.body.errors[0].field).toBe('content_classification');
    const sneaky = await uploadRaw(
      p,
      { container_sid: c.container_sid, name: 'innocent.txt', mime_type: 'text/plain' },
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(32)]),
    );
    expect(sneaky.status).toBe(422);
    const only = await createContainer(p, { allowed_classifications: ['media'] });
    const doc = await uploadRaw(p, { container_sid: only.container_sid, name: 'a.pdf' }, '%PDF-1.4');
    expect(doc.status).toBe(422);
    expect(doc.body.message).toBe('object validation error');
    expect(await listFiles(p, c.container_sid)).toEqual([]);
    expect(await container(c.container_sid)).toMatchObject({ total_files: 0, total_bytes: 0 });
  });

  test('unique key set already used: exact error body with the existing file SID', async () => {
    const c = await createContainer(p);
    const first = await uploadRaw(
      p,
      { container_sid: c.container_sid, unique: true, string_key_1: 'call-42', integer_key_1: 1 },
      'one',
    );
    expect(first.status).toBe(201);
    const second = await uploadRaw(
      p,
      { container_sid: c.container_sid, unique: true, string_key_1: 'call-42', integer_key_1: 1 },
      'two',
    );
    expect(second.status).toBe(422);
    expect(second.body).toEqual({
      message: 'object validation error',
      errors: [
        {
          field: 'unique',
          message: 'file with the same set of keys already exists',
          reference_sid: first.body.file_sid,
        },
      ],
    });
    const notUnique = await uploadRaw(
      p,
      { container_sid: c.container_sid, string_key_1: 'call-42', integer_key_1: 1 },
      'three',
    );
    expect(notUnique.status).toBe(201);
    // Racing unique uploads: exactly one wins.
    const race = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() =>
        uploadRaw(p, { container_sid: c.container_sid, unique: true, string_key_2: 'race' }, 'r'),
      ),
    );
    expect(race.filter((r) => r.status === 201)).toHaveLength(1);
    expect(race.filter((r) => r.status === 422)).toHaveLength(5);
    expect((await listFiles(p, c.container_sid)).length).toBe(3);
  });

  test('quota_files and quota_bytes reached: 422 naming the quota', async () => {
    const c = await createContainer(p, { quota_files: 2, quota_bytes: 10 });
    expect((await uploadRaw(p, { container_sid: c.container_sid }, '1234')).status).toBe(201);
    const tooBig = await uploadRaw(p, { container_sid: c.container_sid }, '1234567');
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors[0].field).toBe('quota_bytes');
    expect((await uploadRaw(p, { container_sid: c.container_sid }, '12')).status).toBe(201);
    const third = await uploadRaw(p, { container_sid: c.container_sid }, '1');
    expect(third.status).toBe(422);
    expect(third.body.errors[0].field).toBe('quota_files');
    expect(await container(c.container_sid)).toMatchObject({
      total_files: 2,
      total_bytes: 6,
      available_files_percent: 0,
      available_bytes_percent: 40,
    });
  });

  test('50 concurrent uploads into room for 10 leave exactly 10 files', async () => {
    const c = await createContainer(p, { quota_files: 10 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        uploadRaw(p, { container_sid: c.container_sid, name: `f${i}.txt` }, `file ${i}`),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 422)).toHaveLength(40);
    for (const r of results.filter((x) => x.status === 422)) expect(r.body.errors[0].field).toBe('quota_files');
    expect((await listFiles(p, c.container_sid)).length).toBe(10);
    expect((await container(c.container_sid)).total_files).toBe(10);
  });
});

describe('reject threshold', () => {
  test('uploads stop once reached, resume after deletions; threshold_include false files do not count', async () => {
    const c = await createContainer(p, { threshold_action: 'reject', threshold_files: 2 });
    const a = await uploadRaw(p, { container_sid: c.container_sid }, 'a');
    await uploadRaw(p, { container_sid: c.container_sid }, 'b');
    expect(await container(c.container_sid)).toMatchObject({
      threshold_total_files: 2,
      threshold_available_files_percent: 0,
    });
    const refused = await uploadRaw(p, { container_sid: c.container_sid }, 'c');
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].field).toBe('threshold_files');
    const excluded = await uploadRaw(p, { container_sid: c.container_sid, threshold_include: false }, 'd');
    expect(excluded.status).toBe(201);
    expect(await container(c.container_sid)).toMatchObject({ total_files: 3, threshold_total_files: 2 });
    await http()
      .delete(`${API}/storage/files/${a.body.file_sid}`)
      .set(...p.auth);
    expect(await container(c.container_sid)).toMatchObject({
      threshold_total_files: 1,
      threshold_available_files_percent: 50,
    });
    expect((await uploadRaw(p, { container_sid: c.container_sid }, 'e')).status).toBe(201);
    // Moving a file out of the threshold counts frees room too.
    const inc = await http()
      .patch(`${API}/storage/files/${excluded.body.file_sid}`)
      .set(...p.auth)
      .send({ threshold_include: true });
    expect(inc.status).toBe(200);
    expect((await container(c.container_sid)).threshold_total_files).toBe(3);
  });

  test('the grace period allows uploads for a while after the threshold is first reached', async () => {
    const c = await createContainer(p, { threshold_action: 'reject', threshold_bytes: 4, threshold_grace_period: 2 });
    expect((await uploadRaw(p, { container_sid: c.container_sid }, '1234')).status).toBe(201);
    expect((await uploadRaw(p, { container_sid: c.container_sid }, '5')).status).toBe(201);
    expect((await container(c.container_sid)).threshold_total_bytes).toBe(5);
    // The grace period (2 s) runs out: polling for it by uploading would add bytes.
    await new Promise((r) => setTimeout(r, 2200));
    const late = await uploadRaw(p, { container_sid: c.container_sid }, '6');
    expect(late.status).toBe(422);
    expect(late.body.errors[0].field).toBe('threshold_bytes');
  });
});
