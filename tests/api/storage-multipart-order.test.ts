/**
 * Multipart uploads in either order: `data` before `file_object` is a valid request (curl -F keeps
 * the order the user typed). The bytes stream in first; the File fields are checked when they
 * arrive, before anything is committed — a refusal then leaves no file, no blob, no pending upload.
 */
import { API, http, newPartner, type TestPartner } from '../harness/api';
import { createContainer, listFiles } from '../support/storage';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 5 } });
});

/** A multipart body with the parts in the order given. */
function multipart(parts: Array<['file_object', string] | ['data', Buffer]>, boundary = 'ORDER-TEST') {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    const disposition =
      name === 'data'
        ? 'form-data; name="data"; filename="song.txt"\r\nContent-Type: text/plain'
        : 'form-data; name="file_object"';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return http()
    .post(`${API}/storage/files`)
    .set(...p.auth)
    .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
    .send(Buffer.concat(chunks));
}

test('data before file_object uploads as the usual order does', async () => {
  const c = await createContainer(p);
  const body = Buffer.from('hello, data first');
  const res = await multipart([
    ['data', body],
    ['file_object', JSON.stringify({ container_sid: c.container_sid, name: 'first.txt', string_key_1: 'k' })],
  ]);
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    name: 'first.txt',
    file_bytes: body.length,
    container_sid: c.container_sid,
    string_key_1: 'k',
    mime_type: 'text/plain',
  });
  const data = await http()
    .get(`${API}/storage/files/${res.body.file_sid}/data`)
    .set(...p.auth);
  expect(data.text).toBe('hello, data first');
  const usual = await multipart([
    ['file_object', JSON.stringify({ container_sid: c.container_sid, name: 'second.txt' })],
    ['data', body],
  ]);
  expect(usual.status).toBe(201);
});

test(
  'data first, then fields that are refused (quota, unknown container, ' +
    'bad field, none at all): the right 4xx, and nothing left',
  async () => {
    const c = await createContainer(p, { quota_bytes: 10 });
    const big = Buffer.alloc(100, 1);
    const cases: Array<{ parts: Parameters<typeof multipart>[0]; status: number; field: string }> = [
      {
        parts: [
          ['data', big],
          ['file_object', JSON.stringify({ container_sid: c.container_sid })],
        ],
        status: 422,
        field: 'quota_bytes',
      },
      {
        parts: [
          ['data', big],
          ['file_object', JSON.stringify({ container_sid: '00000000-0000-4000-8000-000000000000' })],
        ],
        status: 422,
        field: 'container_sid',
      },
      {
        parts: [
          ['data', big],
          ['file_object', JSON.stringify({ container_sid: c.container_sid, publish: 'everyone' })],
        ],
        status: 400,
        field: 'publish',
      },
      {
        parts: [
          ['data', big],
          ['file_object', 'not json'],
        ],
        status: 400,
        field: 'file_object',
      },
      { parts: [['data', big]], status: 400, field: 'file_object' },
    ];
    for (const { parts, status, field } of cases) {
      const res = await multipart(parts);
      expect({ field, status: res.status, named: res.body.errors?.[0]?.field }).toEqual({
        field,
        status,
        named: field,
      });
    }
    expect(await listFiles(p, c.container_sid)).toEqual([]);
    expect(
      (
        await http()
          .get(`${API}/storage/containers/${c.container_sid}`)
          .set(...p.auth)
      ).body,
    ).toMatchObject({ total_files: 0, total_bytes: 0 });
  },
);
