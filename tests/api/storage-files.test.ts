import { API, expectErrorBody, http, instance, newPartner, type TestPartner } from '../harness/api';
import { createContainer, listFiles, uploadMultipart, uploadRaw } from '../support/storage';
import type { ApiJson } from '../support/api-json';
import { untilTrue } from '../support/poll';

let p: TestPartner;
let container: ApiJson;
beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 20 } });
  container = await createContainer(p, { name: 'files' });
});

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100, 0x20)]);
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(60)]);
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(40)]);

describe('upload', () => {
  test('raw upload: 201 with the File, defaults applied, publish_uri by file_sid', async () => {
    const res = await uploadRaw(p, { container_sid: container.container_sid, name: 'notes.txt' }, 'hello');
    expect(res.status).toBe(201);
    const f = res.body;
    expect(Object.keys(f)).toEqual([
      'container_sid',
      'content_classification',
      'content_duration',
      'content_format',
      'content_transcoding_progress',
      'date_created',
      'date_last_accessed',
      'date_modified',
      'desired_bitrate',
      'desired_format',
      'encryption',
      'file_access_name',
      'file_bytes',
      'file_sid',
      'integer_key_1',
      'integer_key_2',
      'lifecycle_action',
      'lifecycle_ttl',
      'mime_type',
      'name',
      'parent_file_sid',
      'partner_sid',
      'publish',
      'publish_uri',
      'string_key_1',
      'string_key_2',
      'string_key_3',
      'string_key_4',
      'threshold_include',
      'type',
      'unique',
    ]);
    expect(f).toMatchObject({
      name: 'notes.txt',
      mime_type: 'text/plain',
      content_classification: 'document',
      file_bytes: 5,
      publish: 'file_sid',
      file_access_name: `${f.file_sid}.txt`,
      publish_uri: `${instance().storageUrl}/f/${f.file_sid}`,
      threshold_include: true,
      lifecycle_action: 'no_action',
      lifecycle_ttl: -1,
      unique: false,
      type: 'file',
      partner_sid: p.partner_sid,
      encryption: null,
    });
    expect(f.date_last_accessed).toBe(f.date_created);
  });

  test('multipart upload: file_object JSON then data', async () => {
    const res = await uploadMultipart(
      p,
      { container_sid: container.container_sid, name: 'doc.pdf', publish: 'file_access_name' },
      PDF,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'doc.pdf',
      mime_type: 'application/pdf',
      content_classification: 'document',
      content_format: 'pdf',
      file_bytes: PDF.length,
    });
    expect(res.body.publish_uri).toBe(`${instance().storageUrl}/f/${res.body.file_access_name}`);
  });

  test('no name: "N/A", no extension; mime from content, else application/octet-stream', async () => {
    const zip = await uploadRaw(p, { container_sid: container.container_sid }, ZIP);
    expect(zip.body).toMatchObject({
      name: 'N/A',
      mime_type: 'application/zip',
      content_classification: 'archive',
      file_access_name: `${zip.body.file_sid}.zip`,
    });
    const blob = await uploadRaw(p, { container_sid: container.container_sid }, Buffer.from([1, 2, 3, 4, 5]));
    expect(blob.body).toMatchObject({
      name: 'N/A',
      mime_type: 'application/octet-stream',
      content_classification: 'unknown',
      file_access_name: blob.body.file_sid,
    });
    const given = await uploadRaw(p, { container_sid: container.container_sid, mime_type: 'audio/x-wav' }, WAV);
    expect(given.body).toMatchObject({ mime_type: 'audio/x-wav', content_classification: 'media' });
    const exe = await uploadRaw(p, { container_sid: container.container_sid, name: 'tool' }, ELF);
    expect(exe.body.content_classification).toBe('executable');
    const declared = await uploadRaw(
      p,
      { container_sid: container.container_sid, content_classification: 'document' },
      ZIP,
    );
    expect(declared.body.content_classification).toBe('document');
  });

  test('container default_file_* values apply; publish no gives a null publish_uri', async () => {
    const c = await createContainer(p, {
      default_file_publish: 'no',
      default_file_threshold_include: false,
      default_file_lifecycle_action: 'delete',
      default_file_lifecycle_ttl: 3600,
    });
    const res = await uploadRaw(p, { container_sid: c.container_sid, name: 'a.txt' }, 'a');
    expect(res.body).toMatchObject({
      publish: 'no',
      publish_uri: null,
      threshold_include: false,
      lifecycle_action: 'delete',
      lifecycle_ttl: 3600,
    });
    const over = await uploadRaw(
      p,
      { container_sid: c.container_sid, name: 'b.txt', publish: 'file_sid', threshold_include: true },
      'b',
    );
    expect(over.body).toMatchObject({ publish: 'file_sid', threshold_include: true });
    const closed = await createContainer(p, { allow_publish: false });
    const hidden = await uploadRaw(p, { container_sid: closed.container_sid, name: 'c.txt', publish: 'file_sid' }, 'c');
    expect(hidden.body.publish_uri).toBeNull();
  });

  test('other content types: 415; missing container_sid or data: 400; unknown container: 422', async () => {
    const text = await http()
      .post(`${API}/storage/files`)
      .set(...p.auth)
      .set('Content-Type', 'text/plain')
      .send('hi');
    expect(text.status).toBe(415);
    expectErrorBody(text.body);
    const missing = await uploadRaw(p, { name: 'x' }, 'x');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('container_sid');
    const noData = await http()
      .post(`${API}/storage/files`)
      .set(...p.auth)
      .field('file_object', JSON.stringify({ container_sid: container.container_sid }));
    expect(noData.status).toBe(400);
    expect(noData.body.errors[0].field).toBe('data');
    const badJson = await http()
      .post(`${API}/storage/files`)
      .set(...p.auth)
      .field('file_object', '{nope')
      .attach('data', Buffer.from('x'), 'x.bin');
    expect(badJson.status).toBe(400);
    expect(badJson.body.errors[0].field).toBe('file_object');
    const unknown = await uploadRaw(p, { container_sid: '00000000-0000-4000-8000-000000000000' }, 'x');
    expect(unknown.status).toBe(422);
    const badField = await uploadRaw(p, { container_sid: container.container_sid, publish: 'everyone' }, 'x');
    expect(badField.status).toBe(400);
    expect(badField.body.errors[0].field).toBe('publish');
  });
});

describe('files', () => {
  test('list with filter, get, patch, put, delete', async () => {
    const c = await createContainer(p);
    const a = (await uploadRaw(p, { container_sid: c.container_sid, name: 'a.txt', string_key_1: 'x' }, 'aaa')).body;
    const b = (await uploadRaw(p, { container_sid: c.container_sid, name: 'b.txt' }, 'bbbb')).body;
    const files = await listFiles(p, c.container_sid);
    expect(files.map((f) => f.file_sid)).toEqual([a.file_sid, b.file_sid]);
    const keyed = await http()
      .get(`${API}/storage/files`)
      .query({ filter: `container_sid eq ${c.container_sid} and string_key_1 eq "x"` })
      .set(...p.auth);
    expect(keyed.body.items.map((f: { file_sid: string }) => f.file_sid)).toEqual([a.file_sid]);
    const one = await http()
      .get(`${API}/storage/files/${a.file_sid}?include_fields=name,file_bytes`)
      .set(...p.auth);
    expect(one.body).toEqual({ file_bytes: 3, name: 'a.txt' });
    const patched = await http()
      .patch(`${API}/storage/files/${a.file_sid}`)
      .set(...p.auth)
      .send({ name: 'renamed.txt', publish: 'file_access_name', file_access_name: `my-${a.file_sid}.txt` });
    expect(patched.status).toBe(200);
    expect(patched.body.publish_uri).toBe(`${instance().storageUrl}/f/my-${a.file_sid}.txt`);
    const taken = await http()
      .patch(`${API}/storage/files/${b.file_sid}`)
      .set(...p.auth)
      .send({ file_access_name: `my-${a.file_sid}.txt` });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0].field).toBe('file_access_name');
    const readOnly = await http()
      .patch(`${API}/storage/files/${b.file_sid}`)
      .set(...p.auth)
      .send({ file_bytes: 1, name: 'b2.txt' });
    expect(readOnly.body).toMatchObject({ file_bytes: 4, name: 'b2.txt' });
    const put = await http()
      .put(`${API}/storage/files/${b.file_sid}`)
      .set(...p.auth)
      .send({ ...readOnly.body, name: 'b3.txt' });
    expect(put.status).toBe(200);
    expect(put.body.name).toBe('b3.txt');
    const del = await http()
      .delete(`${API}/storage/files/${a.file_sid}`)
      .set(...p.auth);
    expect(del.status).toBe(204);
    expect(
      (
        await http()
          .get(`${API}/storage/files/${a.file_sid}`)
          .set(...p.auth)
      ).status,
    ).toBe(404);
    const after = await http()
      .get(`${API}/storage/containers/${c.container_sid}`)
      .set(...p.auth);
    expect(after.body).toMatchObject({ total_files: 1, total_bytes: 4 });
  });

  test('a field set at creation is refused by name when a PATCH or PUT changes it; nothing changes', async () => {
    const c = await createContainer(p);
    const other = await createContainer(p);
    const f = (await uploadRaw(p, { container_sid: c.container_sid, name: 'fixed.txt' }, 'fixed')).body;
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['unique', { unique: true, name: 'x.txt' }],
      ['container_sid', { container_sid: other.container_sid, name: 'x.txt' }],
      ['type', { type: 'audio' }],
      ['desired_format', { desired_format: 'mp3' }],
    ];
    for (const [field, body] of attempts) {
      const res = await http()
        .patch(`${API}/storage/files/${f.file_sid}`)
        .set(...p.auth)
        .send(body);
      expect(res.status).toBe(422);
      expectErrorBody(res.body);
      expect(res.body.errors[0].field).toBe(field);
      expect(res.body.errors[0].message).toMatch(/cannot be changed after creation/);
    }
    const put = await http()
      .put(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth)
      .send({ ...f, unique: true, name: 'x.txt' });
    expect(put.status).toBe(422);
    expect(put.body.errors[0].field).toBe('unique');
    const now = await http()
      .get(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth);
    expect(now.body).toEqual(f);
    expect((await listFiles(p, other.container_sid)).length).toBe(0);
    // The same values sent back are fine.
    const same = await http()
      .patch(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth)
      .send({ unique: false, container_sid: c.container_sid, type: 'file', name: 'fixed2.txt' });
    expect(same.status).toBe(200);
    expect(same.body.name).toBe('fixed2.txt');
  });

  test('download by SID: bytes with headers; updates date_last_accessed, nothing else does', async () => {
    const f = (
      await uploadRaw(p, { container_sid: container.container_sid, name: 'song.wav', mime_type: 'audio/x-wav' }, WAV)
    ).body;
    // Past the upload's millisecond, so an access stamped by the read below would show.
    const stamped = Date.parse(f.date_last_accessed ?? f.date_created);
    await untilTrue(() => Date.now() > stamped + 1, { what: 'the next millisecond', everyMs: 2 });
    await http()
      .get(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth);
    expect(
      (
        await http()
          .get(`${API}/storage/files/${f.file_sid}`)
          .set(...p.auth)
      ).body.date_last_accessed,
    ).toBe(f.date_last_accessed);
    const data = await http()
      .get(`${API}/storage/files/${f.file_sid}/data`)
      .set(...p.auth)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(data.status).toBe(200);
    expect(data.headers['content-type']).toBe('audio/x-wav');
    expect(data.headers['content-length']).toBe(String(WAV.length));
    expect(data.headers['content-disposition']).toBe('attachment; filename="song.wav"');
    expect(Buffer.compare(data.body as Buffer, WAV)).toBe(0);
    const after = (
      await http()
        .get(`${API}/storage/files/${f.file_sid}`)
        .set(...p.auth)
    ).body;
    expect(new Date(after.date_last_accessed).getTime()).toBeGreaterThan(new Date(f.date_last_accessed).getTime());
    expect(after.date_modified).toBe(f.date_modified);
  });

  test('a 5 MiB upload round-trips byte for byte', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE((i * 2654435761) >>> 0, i);
    const f = (await uploadRaw(p, { container_sid: container.container_sid, name: 'big.bin' }, big)).body;
    expect(f.file_bytes).toBe(big.length);
    const res = await http()
      .get(`${API}/storage/files/${f.file_sid}/data`)
      .set(...p.auth)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(Buffer.compare(res.body as Buffer, big)).toBe(0);
  });

  test("another partner's files are 404 everywhere", async () => {
    const f = (await uploadRaw(p, { container_sid: container.container_sid, name: 'mine.txt' }, 'm')).body;
    const other = await newPartner();
    for (const path of [`/storage/files/${f.file_sid}`, `/storage/files/${f.file_sid}/data`]) {
      const res = await http()
        .get(`${API}${path}`)
        .set(...other.auth);
      expect(res.status).toBe(404);
    }
    expect(
      (
        await http()
          .patch(`${API}/storage/files/${f.file_sid}`)
          .set(...other.auth)
          .send({ name: 'x' })
      ).status,
    ).toBe(404);
    expect(
      (
        await http()
          .delete(`${API}/storage/files/${f.file_sid}`)
          .set(...other.auth)
      ).status,
    ).toBe(404);
    const list = await http()
      .get(`${API}/storage/files?filter=file_sid+eq+${f.file_sid}`)
      .set(...other.auth);
    expect(list.body.items).toEqual([]);
  });
});
