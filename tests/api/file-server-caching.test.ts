/**
 * The file server's caching validators (decisions §41): a strong ETag that changes exactly when the
 * bytes change (not on a rename), If-None-Match and If-Modified-Since → 304 with no body, If-Range
 * by ETag as by date; a transcoded copy carries no ETag (a copy made again may differ).
 */
import request from 'supertest';
import { API, http, instance, newPartner, type TestPartner } from '../harness/api';
import { tone } from '../support/media';
import { until } from '../support/poll';
import { uploadRaw } from '../support/storage';
import { defaultContainer } from '../support/media-plane';

let p: TestPartner;
let container = '';
beforeAll(async () => {
  p = await newPartner();
  container = await defaultContainer(p);
});

const pub = () => request(instance().storageUrl);

test('a strong ETag; 304 for If-None-Match and If-Modified-Since; If-Range by ETag', async () => {
  const up = await uploadRaw(p, { container_sid: container, name: 'a.txt' }, 'first bytes');
  const other = await uploadRaw(p, { container_sid: container, name: 'b.txt' }, 'first bytes');
  const path = `/f/${up.body.file_sid}`;
  const first = await pub().get(path);
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  expect((await pub().get(`/f/${other.body.file_sid}`)).headers.etag).not.toBe(etag);

  const fresh = await pub().get(path).set('If-None-Match', etag);
  expect(fresh.status).toBe(304);
  expect(fresh.text ?? '').toBe('');
  expect(fresh.headers).toMatchObject({ etag, 'last-modified': first.headers['last-modified'] });
  expect((await pub().get(path).set('If-None-Match', `"other", W/${etag}`)).status).toBe(304);
  expect((await pub().get(path).set('If-None-Match', '"other"')).status).toBe(200);
  expect((await pub().get(path).set('If-Modified-Since', first.headers['last-modified'])).status).toBe(304);
  expect((await pub().get(path).set('If-Modified-Since', 'Thu, 01 Jan 2015 00:00:00 GMT')).status).toBe(200);
  // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
  expect(
    (await pub().get(path).set('If-None-Match', '"other"').set('If-Modified-Since', first.headers['last-modified']))
      .status,
  ).toBe(200);
  expect((await pub().get(path).set('Range', 'bytes=0-4').set('If-Range', etag)).status).toBe(206);
  const stale = await pub().get(path).set('Range', 'bytes=0-4').set('If-Range', '"not-it"');
  expect(stale.status).toBe(200);

  // A rename changes no byte: the same ETag.
  const renamed = await http()
    .patch(`${API}/storage/files/${up.body.file_sid}`)
    .set(...p.auth)
    .send({ name: 'renamed.txt' });
  expect(renamed.status).toBe(200);
  expect((await pub().get(path)).headers.etag).toBe(etag);
});

test('new bytes (upload-time transcoding) give a new ETag; a download-time copy has none', async () => {
  const up = await uploadRaw(
    p,
    { container_sid: container, name: 'tone.wav', type: 'audio', desired_format: 'mp3' },
    tone('wav', 1),
  );
  expect(up.status).toBe(201);
  const before = (await pub().get(`/f/${up.body.file_sid}`)).headers.etag as string | undefined;
  await until('the upload-time transcoding to finish', 60_000, async () => {
    const f = await http()
      .get(`${API}/storage/files/${up.body.file_sid}`)
      .set(...p.auth);
    return f.body.content_transcoding_progress === 100 ? true : undefined;
  });
  const after = (await pub().get(`/f/${up.body.file_sid}`)).headers.etag as string;
  expect(after).toMatch(/^"/);
  expect(after).not.toBe(before);
  const copy = await pub().get(`/f/${up.body.file_sid}?f=wav`);
  expect(copy.status).toBe(200);
  expect(copy.headers.etag).toBeUndefined();
}, 90_000);
