import { randomUUID } from 'node:crypto';
import { API, expectErrorBody, http, newPartner, type TestPartner } from '../harness/api';
import { created, endpointsAs } from './endpoints-kit';

/**
 * References from endpoints to other objects. `properties.container_sid` is checked by asking the
 * storage service; the tests with a real container need it running (`POST /storage/containers`).
 */
let partner: TestPartner;
let ep: ReturnType<typeof endpointsAs>;
beforeAll(async () => {
  partner = await newPartner();
  ep = endpointsAs(partner);
});

const fieldsOf = (body: { errors: Array<{ field: string | null }> }) => body.errors.map((e) => e.field);

async function newContainer(p: TestPartner): Promise<string> {
  const res = await http()
    .post(`${API}/storage/containers`)
    .set(...p.auth)
    .send({});
  if (res.status !== 200) throw new Error(`container create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.container_sid;
}

describe('properties.conference_endpoint_sid must name a Conference endpoint of the same partner', () => {
  test('its own conference: accepted', async () => {
    const conf = await created(partner, { type: 'conference' });
    const res = await ep.create({
      type: 'conference_playback',
      properties: { conference_endpoint_sid: conf.endpoint_sid },
    });
    expect(res.status).toBe(200);
    expect(res.body.properties.conference_endpoint_sid).toBe(conf.endpoint_sid);
  });

  test('another type, another partner’s conference, an unknown SID: 422 naming the field', async () => {
    const flexml = await created(partner, { type: 'flexml' });
    const theirs = await created(await newPartner(), { type: 'conference' });
    for (const sid of [flexml.endpoint_sid, theirs.endpoint_sid, randomUUID(), 'not-a-sid']) {
      const res = await ep.create({ type: 'conference_playback', properties: { conference_endpoint_sid: sid } });
      expect(res.status).toBe(422);
      expectErrorBody(res.body);
      expect(res.body).toEqual({
        message: 'object validation error',
        errors: [{ field: 'properties.conference_endpoint_sid', message: expect.any(String), reference_sid: null }],
      });
    }
  });
});

describe('properties.container_sid must name a container of the same partner', () => {
  test('a value that cannot be a container SID: 422 naming the field', async () => {
    const res = await ep.create({ type: 'flexml', properties: { container_sid: 'not-a-sid' } });
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body)).toEqual(['properties.container_sid']);
  });

  // Needs the storage service: without it these answer 503 (never accepted silently).
  test('its own container: accepted on create (conference, flexml, voicemail) and on a voicemail update', async () => {
    const container = await newContainer(partner);
    for (const type of ['conference', 'flexml', 'voicemail']) {
      const res = await ep.create({ type, properties: { container_sid: container } });
      expect(res.status).toBe(200);
      expect(res.body.properties.container_sid).toBe(container);
    }
    const vm = await created(partner, { type: 'voicemail' });
    const res = await ep.patch(vm.endpoint_sid, { properties: { container_sid: container } });
    expect(res.status).toBe(200);
    expect(res.body.properties.container_sid).toBe(container);
    const cleared = await ep.patch(vm.endpoint_sid, { properties: { container_sid: null } });
    expect(cleared.body.properties.container_sid).toBeNull();
  });

  test('another partner’s container or an unknown SID: 422 naming the field, nothing written', async () => {
    const theirs = await newContainer(await newPartner());
    for (const sid of [theirs, randomUUID()]) {
      const res = await ep.create({ type: 'voicemail', name: `vm-${sid}`, properties: { container_sid: sid } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'object validation error',
        errors: [{ field: 'properties.container_sid', message: expect.any(String), reference_sid: null }],
      });
      const listed = await ep.list(`?filter=${encodeURIComponent(`name eq "vm-${sid}"`)}`);
      expect(listed.body.total).toBe(0);
    }
    const vm = await created(partner, { type: 'voicemail' });
    const res = await ep.patch(vm.endpoint_sid, { properties: { container_sid: theirs } });
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body)).toEqual(['properties.container_sid']);
    expect((await ep.get(vm.endpoint_sid)).body).toEqual(vm);
  });
});
