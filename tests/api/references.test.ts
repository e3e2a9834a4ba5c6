/**
 * Nothing dangling, nothing lost by a delete (decisions §41): a container an endpoint names cannot
 * be deleted (409 naming the endpoints), nor a conference a playback endpoint names; a
 * conference_playback endpoint needs its conference; a callback_url is http(s) when it is set; a
 * greeting of "" clears it.
 */
import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';
import { endpoint, storedFile } from '../support/media-plane';
import { createContainer } from '../support/storage';

let p: TestPartner;
beforeAll(async () => {
  p = await newPartner({ attributes: { max_containers: 10 } });
});

const del = (path: string) =>
  http()
    .delete(`${API}${path}`)
    .set(...p.auth);
const patch = (sid: string, body: Record<string, unknown>) =>
  http()
    .patch(`${API}/endpoints/${sid}`)
    .set(...p.auth)
    .send(body);

test('a container an endpoint names: 409 naming each endpoint; deletable once none does', async () => {
  const c = await createContainer(p);
  const flexml = await endpoint(p, 'flexml', { container_sid: c.container_sid });
  const vm = await endpoint(p, 'voicemail', { container_sid: c.container_sid });
  const refused = await del(`/storage/containers/${c.container_sid}`);
  expect(refused.status).toBe(409);
  expectErrorBody(refused.body);
  expect(refused.body.errors.map((e: { reference_sid: string }) => e.reference_sid).sort()).toEqual(
    [flexml.endpoint_sid, vm.endpoint_sid].sort(),
  );
  // The container is still there, and recordings still have somewhere to go.
  expect(
    (
      await http()
        .get(`${API}/storage/containers/${c.container_sid}`)
        .set(...p.auth)
    ).status,
  ).toBe(200);
  expect((await patch(vm.endpoint_sid, { properties: { container_sid: null } })).status).toBe(200);
  expect((await del(`/endpoints/${flexml.endpoint_sid}`)).status).toBe(204);
  expect((await del(`/storage/containers/${c.container_sid}`)).status).toBe(204);
});

test(
  'conference_playback: its conference is required at create, and that ' + 'conference cannot be deleted under it',
  async () => {
    const bare = await http()
      .post(`${API}/endpoints`)
      .set(...p.auth)
      .send({ type: 'conference_playback' });
    expect(bare.status).toBe(422);
    expect(bare.body.errors[0].field).toBe('properties.conference_endpoint_sid');
    const conference = await endpoint(p, 'conference');
    const playback = await endpoint(p, 'conference_playback', { conference_endpoint_sid: conference.endpoint_sid });
    const refused = await del(`/endpoints/${conference.endpoint_sid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].reference_sid).toBe(playback.endpoint_sid);
    expect((await del(`/endpoints/${playback.endpoint_sid}`)).status).toBe(204);
    expect((await del(`/endpoints/${conference.endpoint_sid}`)).status).toBe(204);
  },
);

test('callback_url must be http(s) when set (422 naming it); a greeting of "" clears it (null)', async () => {
  const vm = await endpoint(p, 'voicemail');
  const malformed = await patch(vm.endpoint_sid, { properties: { callback_url: 'not a url' } });
  expect(malformed.status).toBe(400);
  expect(malformed.body.errors[0].field).toBe('properties.callback_url');
  for (const url of ['ftp://example.com/cb', 'javascript:alert(1)', 'file:///etc/passwd']) {
    const res = await patch(vm.endpoint_sid, { properties: { callback_url: url } });
    expect({ url, status: res.status }).toEqual({ url, status: 422 });
    expect(res.body.errors[0].field).toBe('properties.callback_url');
  }
  const greeting = (await storedFile(p, { publish: 'file_sid' })).publish_uri as string;
  const set = await patch(vm.endpoint_sid, { properties: { greeting } });
  expect(set.status).toBe(200);
  expect(set.body.properties.greeting).toBe(greeting);
  const cleared = await patch(vm.endpoint_sid, { properties: { greeting: '' } });
  expect(cleared.status).toBe(200);
  expect(cleared.body.properties.greeting).toBeNull();
  const created = await http()
    .post(`${API}/endpoints`)
    .set(...p.auth)
    .send({ type: 'voicemail', properties: { greeting: '' } });
  expect(created.status).toBe(200);
  expect(created.body.properties.greeting).toBeNull();
});
