import { expectErrorBody, newPartner, type TestPartner } from '../harness/api';
import { created, endpointsAs, freshAddress } from './endpoints-kit';
import { storedFile } from '../support/media-plane';

let partner: TestPartner;
let ep: ReturnType<typeof endpointsAs>;
beforeAll(async () => {
  partner = await newPartner();
  ep = endpointsAs(partner);
});

const fieldsOf = (body: { errors: Array<{ field: string | null }> }) => body.errors.map((e) => e.field).sort();

describe('PATCH /endpoints/{endpoint_sid}', () => {
  test('only the fields given change; arrays are replaced whole; attributes merge key by key', async () => {
    const a = freshAddress();
    const e = await created(partner, {
      type: 'third_party',
      name: 'before',
      capacity: 2,
      attributes: { key: 'k', value: 'v' },
      addresses: [a, freshAddress()],
    });
    const b = freshAddress();
    const res = await ep.patch(e.endpoint_sid, { name: 'after', attributes: { value: 'v2' }, addresses: [b] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'after',
      capacity: 2,
      attributes: { key: 'k', value: 'v2' },
      voip_token: e.voip_token,
      type: 'third_party',
    });
    expect(res.body.addresses).toHaveLength(1);
    expect(res.body.addresses[0]).toMatchObject({
      ip: b.ip,
      port: b.port,
      direction: 'any',
      subnet_mask: 32,
      transport: 'udp',
    });
    expect((await ep.get(e.endpoint_sid)).body).toEqual(res.body);
  });

  test('nested_objects=replace replaces nested objects whole', async () => {
    const e = await created(partner, {
      type: 'third_party',
      attributes: { key: 'k', value: 'v' },
      addresses: [freshAddress()],
    });
    const res = await ep.patch(e.endpoint_sid, { attributes: { did_group_id: 'g' } }, '?nested_objects=replace');
    expect(res.status).toBe(200);
    expect(res.body.attributes).toEqual({ did_group_id: 'g' });
    const greeting = (await storedFile(partner)).publish_uri as string;
    const vm = await created(partner, {
      type: 'voicemail',
      properties: { greeting, max_duration: 30, callback_method: 'GET' },
    });
    const merged = await ep.patch(vm.endpoint_sid, { properties: { max_duration: 60 } });
    expect(merged.body.properties).toMatchObject({ greeting, max_duration: 60, callback_method: 'GET' });
    const replaced = await ep.patch(vm.endpoint_sid, { properties: { max_duration: 90 } }, '?nested_objects=replace');
    expect(replaced.status).toBe(200);
    expect(replaced.body.properties).toMatchObject({
      greeting: null,
      max_duration: 90,
      callback_method: 'POST',
      login: vm.properties.login,
      password: vm.properties.password,
    });
  });

  test('nested_objects accepts only replace', async () => {
    const e = await created(partner, { type: 'mediator' });
    const res = await ep.patch(e.endpoint_sid, { name: 'x' }, '?nested_objects=merge');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('nested_objects');
  });

  test('a bad body: 400 naming the field, nothing changed', async () => {
    const e = await created(partner, { type: 'third_party', addresses: [freshAddress()] });
    const res = await ep.patch(e.endpoint_sid, { capacity: 'many', colour: 'red' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['capacity', 'colour']);
    expect((await ep.get(e.endpoint_sid)).body).toEqual(e);
  });

  test('third_party: everything but type may change; addresses keep the address rules', async () => {
    const e = await created(partner, { type: 'third_party', addresses: [freshAddress()] });
    const res = await ep.patch(e.endpoint_sid, {
      out_sip_username: 'u',
      out_sip_password: 'p',
      transformations: [{ t: 1 }],
      auth_required: true,
      capacity: 9,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      out_sip_username: 'u',
      out_sip_password: 'p',
      transformations: [{ t: 1 }],
      capacity: 9,
    });
    for (const [body, field] of [
      [{ type: 'flexml' }, 'type'],
      [{ addresses: [] }, 'addresses'],
      [{ addresses: [{ ...freshAddress(), subnet_mask: 30 }] }, 'addresses.0.subnet_mask'],
      [{ properties: { container_sid: null } }, 'properties.container_sid'],
    ] as const) {
      const bad = await ep.patch(e.endpoint_sid, body);
      expect(bad.status).toBe(422);
      expectErrorBody(bad.body);
      expect(fieldsOf(bad.body)).toEqual([field]);
    }
  });
});

describe('type rules after creation', () => {
  test.each(['mediator', 'conference', 'conference_playback', 'flexml'])(
    '%s: name and capacity change, anything else is a 422 naming the field',
    async (type) => {
      const e = await created(partner, { type });
      const ok = await ep.patch(e.endpoint_sid, { name: 'renamed', capacity: 4 });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ name: 'renamed', capacity: 4, properties: e.properties });
      for (const [body, fields] of [
        [{ attributes: { key: 'k' } }, ['attributes.key']],
        [{ out_sip_username: 'u' }, ['out_sip_username']],
        [{ transformations: [{}] }, ['transformations']],
        [{ auth_required: false }, ['auth_required']],
        [{ addresses: [freshAddress()] }, ['addresses']],
        [{ type: 'voicemail' }, ['type']],
        [{ name: 'ok', out_sip_password: 'p', attributes: { value: 'v' } }, ['attributes.value', 'out_sip_password']],
      ] as const) {
        const res = await ep.patch(e.endpoint_sid, body);
        expect(res.status).toBe(422);
        expectErrorBody(res.body);
        expect(res.body.message).toBe('object validation error');
        expect(fieldsOf(res.body)).toEqual(fields);
      }
      expect((await ep.get(e.endpoint_sid)).body).toEqual(ok.body);
    },
  );

  test(
    'conference and flexml: properties.container_sid is fixed; ' + 'conference_playback: conference_endpoint_sid too',
    async () => {
      for (const type of ['conference', 'flexml']) {
        const e = await created(partner, { type });
        const res = await ep.patch(e.endpoint_sid, {
          properties: { container_sid: '6f1c9d9e-8a53-4bd5-9d51-8b6a6d5b1c11' },
        });
        expect(res.status).toBe(422);
        expect(fieldsOf(res.body)).toEqual(['properties.container_sid']);
      }
      const conf = await created(partner, { type: 'conference' });
      const playback = await created(partner, { type: 'conference_playback' });
      const res = await ep.patch(playback.endpoint_sid, { properties: { conference_endpoint_sid: conf.endpoint_sid } });
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toEqual(['properties.conference_endpoint_sid']);
    },
  );

  test('voicemail: also callback_method, callback_url, greeting, max_duration (and container_sid)', async () => {
    const e = await created(partner, { type: 'voicemail' });
    const greeting = (await storedFile(partner)).publish_uri as string;
    const res = await ep.patch(e.endpoint_sid, {
      name: 'vm',
      properties: {
        callback_method: 'GET',
        callback_url: 'https://cb.example/x',
        greeting,
        max_duration: 45,
        container_sid: null,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.properties).toMatchObject({
      callback_method: 'GET',
      callback_url: 'https://cb.example/x',
      greeting,
      max_duration: 45,
      container_sid: null,
    });
    const bad = await ep.patch(e.endpoint_sid, { out_sip_password: 'x', attributes: { key: 'k' } });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad.body)).toEqual(['attributes.key', 'out_sip_password']);
  });

  test('read-only fields sent in an update are ignored', async () => {
    const e = await created(partner, { type: 'flexml' });
    const res = await ep.patch(e.endpoint_sid, {
      endpoint_sid: 'x',
      voip_token: 'x',
      cps_limit: 3,
      partner_sid: 'x',
      properties: { login: 'mine', password: 'mine' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(e);
  });
});

describe('PUT /endpoints/{endpoint_sid}', () => {
  test('requires the whole object: 400 naming each missing field', async () => {
    const e = await created(partner, { type: 'third_party', addresses: [freshAddress()] });
    const res = await ep.put(e.endpoint_sid, { type: 'third_party', name: 'x' });
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(fieldsOf(res.body)).toEqual([
      'addresses',
      'attributes',
      'auth_required',
      'capacity',
      'out_sip_password',
      'out_sip_username',
      'properties',
      'transformations',
    ]);
  });

  test('the object as read can be put back unchanged, even without endpoints.manage_auth_required', async () => {
    const restricted = await newPartner({ scopes: ['endpoints.manage'] });
    const mine = endpointsAs(restricted);
    for (const body of [
      { type: 'third_party', addresses: [freshAddress()] },
      { type: 'conference' },
      { type: 'voicemail' },
    ]) {
      const e = (await mine.create(body)).body;
      const res = await mine.put(e.endpoint_sid, e);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(e);
    }
  });

  test('replaces the object: nested objects whole, defaults for what the body leaves out of them', async () => {
    const e = await created(partner, {
      type: 'third_party',
      name: 'n',
      attributes: { key: 'k', value: 'v' },
      addresses: [freshAddress()],
    });
    const a = freshAddress();
    const whole = {
      ...e,
      name: 'put',
      capacity: 3,
      attributes: { did_group_id: 'g' },
      addresses: [{ ip: a.ip }],
      out_sip_username: 'u',
    };
    const res = await ep.put(e.endpoint_sid, whole);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'put',
      capacity: 3,
      attributes: { did_group_id: 'g' },
      out_sip_username: 'u',
      voip_token: e.voip_token,
      endpoint_sid: e.endpoint_sid,
    });
    expect(res.body.addresses).toEqual([
      {
        direction: 'any',
        dst_port: 5060,
        ip: a.ip,
        location_sid: null,
        port: 5060,
        priority: 0,
        sip_password: null,
        sip_username: null,
        srtp: false,
        subnet_mask: 32,
        transport: 'udp',
      },
    ]);
  });

  test('fields that became read-only at creation cannot change through PUT either', async () => {
    const e = await created(partner, { type: 'mediator', name: 'm' });
    const res = await ep.put(e.endpoint_sid, { ...e, name: 'fine', attributes: { key: 'k' }, out_sip_username: 'u' });
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body)).toEqual(['attributes.key', 'out_sip_username']);
    const ok = await ep.put(e.endpoint_sid, { ...e, name: 'fine' });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('fine');
  });
});
