/**
 * The media plane, playback out (docs/interface-notes.md, Endpoints and containers,
 * Media plane): every rule both ways — what each endpoint type may play and what it may not —
 * ranges like the public file server, and date_last_accessed never touched.
 */
import { API, http, newPartner, type TestPartner } from '../harness/api';
import { tone } from '../support/media';
import { defaultContainer, endpoint, play, storedFile } from '../support/media-plane';
import { createContainer } from '../support/storage';

let p: TestPartner;
let other: TestPartner;
beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 10 } });
  other = await newPartner();
});

/** A 403 naming `field`, in the standard error body. */
function expectForbidden(res: { status: number; body: unknown }, field: string): void {
  expect(res.status).toBe(403);
  expect(JSON.parse((res.body as Buffer).toString())).toMatchObject({ message: 'Forbidden', errors: [{ field }] });
}

test(
  "FlexML: by publish_uri a published file (any partner's), never an " +
    "unpublished one; by file_sid only its own partner's",
  async () => {
    const flexml = await endpoint(p, 'flexml');
    const published = await storedFile(p);
    const hidden = await storedFile(p, { publish: 'no' });
    const byAccessName = await storedFile(p, { publish: 'file_access_name' });
    const theirs = await storedFile(other);
    const ok = await play({ endpoint_sid: flexml.endpoint_sid, uri: published.publish_uri });
    expect(ok.status).toBe(200);
    expect((ok.body as Buffer).equals(tone('wav', 1))).toBe(true);
    expect((await play({ endpoint_sid: flexml.endpoint_sid, uri: byAccessName.publish_uri })).status).toBe(200);
    expect((await play({ endpoint_sid: flexml.endpoint_sid, uri: theirs.publish_uri })).status).toBe(200);
    // Not published, or not under this uri (a file_access_name file named by its file_sid).
    const storage = new URL(published.publish_uri).origin;
    expectForbidden(await play({ endpoint_sid: flexml.endpoint_sid, uri: `${storage}/f/${hidden.file_sid}` }), 'uri');
    expectForbidden(
      await play({ endpoint_sid: flexml.endpoint_sid, uri: `${storage}/f/${byAccessName.file_sid}` }),
      'uri',
    );
    expect((await play({ endpoint_sid: flexml.endpoint_sid, file_sid: hidden.file_sid })).status).toBe(200);
    expectForbidden(await play({ endpoint_sid: flexml.endpoint_sid, file_sid: theirs.file_sid }), 'file_sid');
  },
);

test('Voicemail: its greeting by publish_uri when published; nothing by file_sid', async () => {
  const greeting = await storedFile(p);
  const vm = await endpoint(p, 'voicemail', { greeting: greeting.publish_uri });
  expect((await play({ endpoint_sid: vm.endpoint_sid, uri: vm.properties.greeting })).status).toBe(200);
  expectForbidden(await play({ endpoint_sid: vm.endpoint_sid, file_sid: greeting.file_sid }), 'file_sid');
  // Unpublished after the fact: the greeting is no longer playable.
  await http()
    .patch(`${API}/storage/files/${greeting.file_sid}`)
    .set(...p.auth)
    .send({ publish: 'no' });
  expectForbidden(await play({ endpoint_sid: vm.endpoint_sid, uri: vm.properties.greeting }), 'uri');
});

test(
  'Conference: files of its own container (property, else the default); ' +
    "Conference Playback: only its conference's",
  async () => {
    const room = await createContainer(p);
    const elsewhere = await createContainer(p);
    const conference = await endpoint(p, 'conference', { container_sid: room.container_sid });
    const replay = await endpoint(p, 'conference_playback', { conference_endpoint_sid: conference.endpoint_sid });
    const inRoom = await storedFile(p, { containerSid: room.container_sid, publish: 'no' });
    const outside = await storedFile(p, { containerSid: elsewhere.container_sid });
    const inDefault = await storedFile(p, { containerSid: await defaultContainer(p) });
    for (const e of [conference, replay]) {
      expect((await play({ endpoint_sid: e.endpoint_sid, file_sid: inRoom.file_sid })).status).toBe(200);
      expectForbidden(await play({ endpoint_sid: e.endpoint_sid, file_sid: outside.file_sid }), 'file_sid');
      expectForbidden(await play({ endpoint_sid: e.endpoint_sid, uri: outside.publish_uri }), 'uri');
      expectForbidden(await play({ endpoint_sid: e.endpoint_sid, file_sid: inDefault.file_sid }), 'file_sid');
    }
    // Without a container_sid, a conference plays from the partner's default container.
    const bare = await endpoint(p, 'conference');
    expect((await play({ endpoint_sid: bare.endpoint_sid, file_sid: inDefault.file_sid })).status).toBe(200);
    expectForbidden(await play({ endpoint_sid: bare.endpoint_sid, file_sid: inRoom.file_sid }), 'file_sid');
  },
);

test('types that play nothing, unknown files and endpoints, and a request naming both or neither', async () => {
  const f = await storedFile(p);
  for (const type of ['mediator', 'third_party'])
    expectForbidden(
      await play({ endpoint_sid: (await endpoint(p, type)).endpoint_sid, file_sid: f.file_sid }),
      'endpoint_sid',
    );
  const flexml = await endpoint(p, 'flexml');
  expect(
    (await play({ endpoint_sid: flexml.endpoint_sid, file_sid: '00000000-0000-4000-8000-000000000000' })).status,
  ).toBe(404);
  expect((await play({ endpoint_sid: flexml.endpoint_sid, uri: 'https://elsewhere.example/f/x' })).status).toBe(404);
  expect((await play({ endpoint_sid: '00000000-0000-4000-8000-000000000000', file_sid: f.file_sid })).status).toBe(404);
  // Both or neither: a malformed request, 400 naming the two parameters (decisions §41).
  for (const query of [{ file_sid: String(f.file_sid), uri: String(f.publish_uri) }, {}] as Array<
    Record<string, string>
  >) {
    const res = await play({ endpoint_sid: flexml.endpoint_sid, ...query });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).errors.map((e: { field: string }) => e.field)).toEqual(['file_sid', 'uri']);
  }
  expect((await play({ file_sid: f.file_sid })).status).toBe(400);
});

test('ranges as on the file server (206, If-Range), and playback never touches date_last_accessed', async () => {
  const f = await storedFile(p);
  const flexml = await endpoint(p, 'flexml');
  const bytes = tone('wav', 1);
  const part = await play({ endpoint_sid: flexml.endpoint_sid, file_sid: f.file_sid }, { Range: 'bytes=100-199' });
  expect(part.status).toBe(206);
  expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
  expect(part.headers['accept-ranges']).toBe('bytes');
  expect((part.body as Buffer).equals(bytes.subarray(100, 200))).toBe(true);
  const stale = await play(
    { endpoint_sid: flexml.endpoint_sid, file_sid: f.file_sid },
    { Range: 'bytes=0-9', 'If-Range': 'Mon, 01 Jan 2001 00:00:00 GMT' },
  );
  expect(stale.status).toBe(200);
  expect(stale.headers['content-range']).toBeUndefined();
  const fresh = await play(
    { endpoint_sid: flexml.endpoint_sid, file_sid: f.file_sid },
    { Range: 'bytes=0-9', 'If-Range': part.headers['last-modified'] },
  );
  expect(fresh.status).toBe(206);
  expect(
    (await play({ endpoint_sid: flexml.endpoint_sid, file_sid: f.file_sid }, { Range: `bytes=${bytes.length + 10}-` }))
      .status,
  ).toBe(416);
  const after = (
    await http()
      .get(`${API}/storage/files/${f.file_sid}`)
      .set(...p.auth)
  ).body;
  expect(after.date_last_accessed).toBe(f.date_last_accessed);
});
