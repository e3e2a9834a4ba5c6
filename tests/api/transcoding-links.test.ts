/**
 * Stable links (decisions §18, §19): the `publish_uri` returned at upload serves the file for
 * its whole life, upload-time transcoding included; `Last-Modified` (and so `If-Range`) follows
 * the bytes: a rename or a publish change keeps it, new data changes it.
 */
import request from 'supertest';
import { API, http, instance, newPartner, type TestPartner } from '../harness/api';
import { createContainer, transcodedFile, uploadRaw } from '../support/storage';
import { noise } from '../support/media';
import { binary } from '../support/audio-probe';
import { untilTrue } from '../support/poll';

let p: TestPartner;
let containerSid: string;
/** GET of a publish_uri (absolute, on the file server), with extra headers. */
const fetchUri = (uri: string, headers: Record<string, string> = {}) => {
  const u = new URL(uri);
  let r = request(u.origin).get(u.pathname + u.search);
  for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
  return binary(r);
};

beforeAll(async () => {
  p = await newPartner();
  containerSid = (await createContainer(p)).container_sid;
});

test('the publish_uri returned at upload still serves the file after transcoding changes its format', async () => {
  const up = await uploadRaw(
    p,
    {
      container_sid: containerSid,
      name: 'greeting.wav',
      type: 'audio',
      desired_format: 'mp3',
      publish: 'file_access_name',
    },
    noise('wav', { seconds: 2, sampleRate: 8000, channels: 1 }),
  );
  expect(up.status).toBe(201);
  const uri = up.body.publish_uri as string;
  expect(uri).toBe(`${instance().storageUrl}/f/${up.body.file_access_name}`);
  const done = await transcodedFile(p, up.body.file_sid);
  expect(done).toMatchObject({ publish_uri: uri, file_access_name: `${up.body.file_sid}.mp3`, content_format: 'mp3' });
  const served = await fetchUri(uri);
  expect(served.status).toBe(200);
  expect(served.headers['content-type']).toBe('audio/mpeg');
  const data = await binary(
    http()
      .get(`${API}/storage/files/${done.file_sid}/data`)
      .set(...p.auth),
  );
  expect(Buffer.compare(served.body, data.body)).toBe(0);
  // A name the client chose is kept as it is.
  const named = await uploadRaw(
    p,
    {
      container_sid: containerSid,
      name: 'x.wav',
      type: 'audio',
      desired_format: 'ogg',
      publish: 'file_access_name',
      file_access_name: `hello-${Date.now()}.wav`,
    },
    noise('wav', { seconds: 1, sampleRate: 8000, channels: 1 }),
  );
  const namedDone = await transcodedFile(p, named.body.file_sid);
  expect(namedDone.publish_uri).toBe(named.body.publish_uri);
  expect((await fetchUri(named.body.publish_uri)).headers['content-type']).toBe('audio/ogg');
});

test('Last-Modified follows the bytes: a rename or a publish change keeps it, and If-Range still matches', async () => {
  const up = await uploadRaw(
    p,
    { container_sid: containerSid, name: 'a.wav', publish: 'file_sid' },
    noise('wav', { seconds: 1, sampleRate: 8000, channels: 1 }),
  );
  const first = await fetchUri(up.body.publish_uri);
  const lastModified = first.headers['last-modified'] as string;
  expect(new Date(lastModified).getTime()).toBeLessThanOrEqual(Date.now());
  // HTTP dates have whole seconds: make sure a change of metadata would show as another one.
  const stamped = Math.max(Date.parse(lastModified), Date.parse(up.body.date_modified));
  await untilTrue(() => Math.floor(Date.now() / 1000) > Math.floor(stamped / 1000), { what: 'the next second' });
  const renamed = await http()
    .patch(`${API}/storage/files/${up.body.file_sid}`)
    .set(...p.auth)
    .send({ name: 'renamed.wav', file_access_name: `renamed-${Date.now()}.wav` });
  expect(renamed.status).toBe(200);
  expect(renamed.body.date_modified).not.toBe(up.body.date_modified);
  const byName = await http()
    .patch(`${API}/storage/files/${up.body.file_sid}`)
    .set(...p.auth)
    .send({ publish: 'file_access_name' });
  expect(byName.status).toBe(200);
  const viaName = await fetchUri(byName.body.publish_uri, { Range: 'bytes=0-99', 'If-Range': lastModified });
  expect([viaName.status, viaName.headers['last-modified']]).toEqual([206, lastModified]);
  await http()
    .patch(`${API}/storage/files/${up.body.file_sid}`)
    .set(...p.auth)
    .send({ publish: 'file_sid' });
  const viaSid = await fetchUri(up.body.publish_uri, { Range: 'bytes=0-99', 'If-Range': lastModified });
  expect([viaSid.status, viaSid.headers['last-modified']]).toEqual([206, lastModified]);
});

test(
  'new data changes Last-Modified: after upload-time transcoding, an ' +
    'If-Range of the old data gets the whole new file',
  async () => {
    // Ten minutes to AAC: seconds of work, so the new data is certainly stamped in a later second.
    const up = await uploadRaw(
      p,
      {
        container_sid: containerSid,
        name: 'long.wav',
        type: 'audio',
        desired_format: 'mp4',
        publish: 'file_access_name',
      },
      noise('wav', { seconds: 600, sampleRate: 8000, channels: 1 }),
    );
    const before = await fetchUri(up.body.publish_uri, { Range: 'bytes=0-99' });
    expect(before.status).toBe(206);
    expect(before.headers['content-type']).toBe('audio/x-wav');
    const old = before.headers['last-modified'] as string;
    await transcodedFile(p, up.body.file_sid);
    const stale = await fetchUri(up.body.publish_uri, { Range: 'bytes=0-99', 'If-Range': old });
    expect(stale.status).toBe(200);
    expect(stale.headers['content-type']).toBe('video/mp4');
    expect(stale.headers['content-range']).toBeUndefined();
    const now = stale.headers['last-modified'] as string;
    expect(new Date(now).getTime()).toBeGreaterThan(new Date(old).getTime());
    const fresh = await fetchUri(up.body.publish_uri, { Range: 'bytes=0-99', 'If-Range': now });
    expect(fresh.status).toBe(206);
  },
  90000,
);
