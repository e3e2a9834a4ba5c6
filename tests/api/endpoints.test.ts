import { expectErrorBody, newPartner, type TestPartner } from '../harness/api';
import {
  ADDRESS_KEYS,
  ENDPOINT_KEYS,
  UUID,
  created,
  endpointsAs,
  freshAddress,
  systemGatewayOf,
} from './endpoints-kit';
import { storedFile } from '../support/media-plane';

let partner: TestPartner;
let ep: ReturnType<typeof endpointsAs>;
beforeAll(async () => {
  partner = await newPartner();
  ep = endpointsAs(partner);
});

describe('POST /endpoints: fields and defaults', () => {
  test('third_party: every field, address defaults, a voip_token and empty properties', async () => {
    const a = freshAddress();
    const res = await ep.create({ type: 'third_party', name: 'PBX', addresses: [{ ip: a.ip }] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(ENDPOINT_KEYS);
    expect(res.body).toMatchObject({
      attributes: {},
      auth_required: true,
      capacity: 0,
      cps_limit: null,
      name: 'PBX',
      out_sip_password: null,
      out_sip_username: null,
      partner_sid: partner.partner_sid,
      properties: {},
      transformations: [],
      type: 'third_party',
    });
    expect(res.body.endpoint_sid).toMatch(UUID);
    expect(res.body.voip_token).toMatch(UUID);
    expect(Object.keys(res.body.addresses[0])).toEqual(ADDRESS_KEYS);
    expect(res.body.addresses[0]).toEqual({
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
    });
  });

  test('given address fields are kept; numeric strings are coerced', async () => {
    const a = freshAddress();
    const res = await ep.create({
      type: 'third_party',
      capacity: '7',
      out_sip_username: 'u',
      out_sip_password: 'p',
      transformations: [{ rule: 'strip', digits: 1 }],
      attributes: { key: 'k', value: 'v', did_group_id: 'g' },
      addresses: [
        {
          ip: a.ip,
          port: String(a.port),
          direction: 'outbound',
          subnet_mask: 29,
          transport: 'tls',
          srtp: true,
          priority: 2,
          dst_port: 5080,
          sip_username: 'su',
          sip_password: 'sp',
          location_sid: 'loc-1',
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      capacity: 7,
      out_sip_username: 'u',
      out_sip_password: 'p',
      transformations: [{ digits: 1, rule: 'strip' }],
      attributes: { did_group_id: 'g', key: 'k', value: 'v' },
    });
    expect(res.body.addresses[0]).toEqual({
      direction: 'outbound',
      dst_port: 5080,
      ip: a.ip,
      location_sid: 'loc-1',
      port: a.port,
      priority: 2,
      sip_password: 'sp',
      sip_username: 'su',
      srtp: true,
      subnet_mask: 29,
      transport: 'tls',
    });
  });

  test.each([
    [
      'conference',
      ['account_sid', 'api_url', 'container_sid', 'login', 'password', 'subscriber_sid'],
      '/conference/v1',
    ],
    [
      'conference_playback',
      ['account_sid', 'api_url', 'conference_endpoint_sid', 'login', 'password'],
      '/conference_playback/v1',
    ],
    ['flexml', ['account_sid', 'api_url', 'container_sid', 'login', 'password'], '/flexml/v1'],
    ['mediator', ['account_sid', 'api_url', 'login', 'password'], '/mediator/v1'],
    [
      'voicemail',
      [
        'account_sid',
        'api_url',
        'callback_method',
        'callback_url',
        'container_sid',
        'greeting',
        'login',
        'max_duration',
        'password',
      ],
      '/voicemail/v1',
    ],
  ])('%s: generated read-only properties, no addresses, voip_token null', async (type, keys, suffix) => {
    // A playback endpoint names its conference (decisions §41).
    const properties =
      type === 'conference_playback'
        ? { conference_endpoint_sid: (await ep.create({ type: 'conference' })).body.endpoint_sid }
        : undefined;
    const res = await ep.create({ type, ...(properties ? { properties } : {}) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type, addresses: [], voip_token: null });
    expect(Object.keys(res.body.properties)).toEqual(keys);
    const p = res.body.properties;
    expect(p.account_sid).toMatch(UUID);
    expect(p.api_url).toMatch(/^https?:\/\/.+/);
    expect(p.api_url.endsWith(suffix)).toBe(true);
    expect(typeof p.login).toBe('string');
    expect(p.password.length).toBeGreaterThanOrEqual(16);
    if (type === 'conference') expect(p.subscriber_sid).toMatch(UUID);
    if (type === 'voicemail')
      expect(p).toMatchObject({
        callback_method: 'POST',
        callback_url: null,
        container_sid: null,
        greeting: null,
        max_duration: null,
      });
    const again = await ep.create({ type, ...(properties ? { properties } : {}) });
    expect(again.body.properties.password).not.toBe(p.password);
  });

  test('voicemail takes its writable properties (the greeting: a published file of the partner)', async () => {
    const greeting = (await storedFile(partner)).publish_uri as string;
    const res = await ep.create({
      type: 'voicemail',
      properties: { callback_method: 'GET', callback_url: 'https://cb.example.com/vm', greeting, max_duration: 120 },
    });
    expect(res.status).toBe(200);
    expect(res.body.properties).toMatchObject({
      callback_method: 'GET',
      callback_url: 'https://cb.example.com/vm',
      greeting,
      max_duration: 120,
    });
  });

  test('read-only fields in the body are ignored', async () => {
    const res = await ep.create({
      type: 'mediator',
      endpoint_sid: '00000000-0000-4000-8000-000000000000',
      partner_sid: '00000000-0000-4000-8000-000000000001',
      voip_token: 'mine',
      cps_limit: 5,
      properties: { login: 'chosen', password: 'chosen', account_sid: 'x', api_url: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body.endpoint_sid).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(res.body).toMatchObject({ partner_sid: partner.partner_sid, voip_token: null, cps_limit: null });
    expect(res.body.properties.login).not.toBe('chosen');
    expect(res.body.properties.password).not.toBe('chosen');
  });

  test('cps_limit is read-only on a third_party endpoint too: ignored on create and update, never stored', async () => {
    // The interface marks cps_limit read-only, and read-only fields in a body are ignored (decisions §51).
    const created = await ep.create({ type: 'third_party', cps_limit: 7, addresses: [freshAddress()] });
    expect(created.status).toBe(200);
    expect(created.body.cps_limit).toBeNull();
    const sid = created.body.endpoint_sid;
    const patched = await ep.patch(sid, { cps_limit: 9, name: 'renamed' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'renamed', cps_limit: null });
    expect((await ep.get(sid)).body.cps_limit).toBeNull();
  });

  test.each([
    [{}, 'type'],
    [{ type: 'sip_trunk' }, 'type'],
    [{ type: 'mediator', colour: 'red' }, 'colour'],
    [{ type: 'third_party', addresses: [{ port: 5060 }] }, 'addresses.0.ip'],
    [{ type: 'third_party', addresses: [{ ip: 'not an address' }] }, 'addresses.0.ip'],
    [{ type: 'third_party', addresses: [{ ip: '10.0.0.1', transport: 'sctp' }] }, 'addresses.0.transport'],
    [{ type: 'third_party', addresses: [{ ip: '10.0.0.1', subnet_mask: 33 }] }, 'addresses.0.subnet_mask'],
    [{ type: 'third_party', addresses: [{ ip: '10.0.0.1', port: 70000 }] }, 'addresses.0.port'],
    [{ type: 'voicemail', properties: { callback_method: 'PUT' } }, 'properties.callback_method'],
    [{ type: 'mediator', attributes: { colour: 'red' } }, 'attributes.colour'],
    [{ type: 'mediator', capacity: -1 }, 'capacity'],
  ])('a body that does not fit the schema: 400 naming the field (%j)', async (body, field) => {
    const res = await ep.create(body);
    expect(res.status).toBe(400);
    expectErrorBody(res.body);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  test.each([
    [{ type: 'third_party' }, 'addresses'],
    [{ type: 'third_party', addresses: [] }, 'addresses'],
    [{ type: 'flexml', addresses: [{ ip: '10.0.0.1' }] }, 'addresses'],
    [{ type: 'mediator', properties: { container_sid: null } }, 'properties.container_sid'],
    [{ type: 'third_party', addresses: [{ ip: '10.0.0.1' }], properties: { greeting: 'x' } }, 'properties.greeting'],
    [
      { type: 'third_party', addresses: [{ ip: '10.0.0.1', direction: 'inbound', subnet_mask: 30 }] },
      'addresses.0.subnet_mask',
    ],
    [{ type: 'third_party', addresses: [{ ip: '10.0.0.1', subnet_mask: 31 }] }, 'addresses.0.subnet_mask'],
    [
      {
        type: 'third_party',
        addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2', direction: 'outbound', subnet_mask: 28 }],
      },
      'addresses.1.subnet_mask',
    ],
    [{ type: 'system_gateway' }, 'type'],
  ])('an object rule broken: 422 naming the field (%j)', async (body, field) => {
    const res = await ep.create(body);
    expect(res.status).toBe(422);
    expectErrorBody(res.body);
    expect(res.body.message).toBe('object validation error');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  test('outbound addresses take subnet_mask 29 to 32', async () => {
    for (const mask of [29, 30, 31, 32]) {
      const res = await ep.create({
        type: 'third_party',
        addresses: [{ ...freshAddress(), direction: 'outbound', subnet_mask: mask }],
      });
      expect(res.status).toBe(200);
      expect(res.body.addresses[0].subnet_mask).toBe(mask);
    }
  });

  test('host names are accepted as ip', async () => {
    const res = await ep.create({ type: 'third_party', addresses: [{ ip: 'pbx.example.com' }] });
    expect(res.status).toBe(200);
    expect(res.body.addresses[0].ip).toBe('pbx.example.com');
  });
});

describe('GET /endpoints/{endpoint_sid}', () => {
  test('returns the object as created; field filtering; with_related adds the partner', async () => {
    const e = await created(partner, { type: 'third_party', name: 'get-me', addresses: [freshAddress()] });
    const res = await ep.get(e.endpoint_sid);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(e);
    const only = await ep.get(e.endpoint_sid, '?include_fields=endpoint_sid,addresses.ip,properties');
    expect(only.body).toEqual({ addresses: [{ ip: e.addresses[0].ip }], endpoint_sid: e.endpoint_sid, properties: {} });
    const without = await ep.get(e.endpoint_sid, '?exclude_fields=addresses,voip_token');
    expect(Object.keys(without.body)).toEqual(ENDPOINT_KEYS.filter((k) => k !== 'addresses' && k !== 'voip_token'));
    const related = await ep.get(e.endpoint_sid, '?with_related=true');
    expect(Object.keys(related.body)).toEqual([...ENDPOINT_KEYS.slice(0, 9), 'partner', ...ENDPOINT_KEYS.slice(9)]);
    expect(related.body.partner).toMatchObject({ partner_sid: partner.partner_sid, login: partner.login });
    expect(related.body.partner.password).toBeUndefined();
    const plain = await ep.get(e.endpoint_sid, '?with_related=false');
    expect(plain.body.partner).toBeUndefined();
    const relatedName = await ep.get(e.endpoint_sid, '?with_related=true&include_fields=partner.login,name');
    expect(relatedName.body).toEqual({ name: 'get-me', partner: { login: partner.login } });
  });

  test('bad query values: 400 naming the parameter', async () => {
    const e = await created(partner, { type: 'mediator' });
    for (const [query, field] of [
      ['?with_related=maybe', 'with_related'],
      ['?include_fields=nope', 'include_fields'],
      ['?exclude_fields=addresses.nope', 'exclude_fields'],
    ]) {
      const res = await ep.get(e.endpoint_sid, query);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe(field);
    }
  });

  test('an unknown SID: 404 Cannot find item by SID', async () => {
    for (const sid of ['9b2f5a52-5b9c-4d0e-9b62-1a2b3c4d5e6f', 'not-a-sid']) {
      const res = await ep.get(sid);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [], message: 'Cannot find item by SID' });
    }
  });
});

describe('DELETE /endpoints/{endpoint_sid}', () => {
  test('204 with an empty body; then it is gone', async () => {
    const e = await created(partner, { type: 'flexml' });
    const res = await ep.delete(e.endpoint_sid);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await ep.get(e.endpoint_sid)).status).toBe(404);
    expect((await ep.delete(e.endpoint_sid)).status).toBe(404);
  });
});

describe("another partner's endpoint is a 404 for every operation", () => {
  test('get, patch, put, delete; and it is not listed', async () => {
    const other = await newPartner();
    const theirs = await created(other, { type: 'third_party', name: 'theirs', addresses: [freshAddress()] });
    const whole = { ...theirs, name: 'mine now' };
    for (const res of [
      await ep.get(theirs.endpoint_sid),
      await ep.patch(theirs.endpoint_sid, { name: 'x' }),
      await ep.put(theirs.endpoint_sid, whole),
      await ep.delete(theirs.endpoint_sid),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [], message: 'Cannot find item by SID' });
    }
    const listed = await ep.list(`?filter=${encodeURIComponent(`endpoint_sid eq ${theirs.endpoint_sid}`)}`);
    expect(listed.body.total).toBe(0);
    const still = await endpointsAs(other).get(theirs.endpoint_sid);
    expect(still.body).toEqual(theirs);
  });
});

describe('scopes', () => {
  test('each operation takes endpoints.manage or its own scope; 403 otherwise', async () => {
    const reader = endpointsAs(await newPartner({ scopes: ['endpoints.read'] }));
    const creator = endpointsAs(await newPartner({ scopes: ['endpoints.create'] }));
    const updater = endpointsAs(await newPartner({ scopes: ['endpoints.update'] }));
    const deleter = endpointsAs(await newPartner({ scopes: ['endpoints.delete'] }));
    const manager = endpointsAs(await newPartner({ scopes: ['endpoints.manage'] }));
    const sid = '9b2f5a52-5b9c-4d0e-9b62-1a2b3c4d5e6f';
    expect((await reader.create({ type: 'mediator' })).status).toBe(403);
    expect((await reader.list()).status).toBe(200);
    expect((await reader.get(sid)).status).toBe(404);
    expect((await creator.create({ type: 'mediator' })).status).toBe(200);
    expect((await creator.list()).status).toBe(403);
    expect((await creator.get(sid)).status).toBe(403);
    expect((await creator.patch(sid, {})).status).toBe(403);
    expect((await updater.patch(sid, {})).status).toBe(404);
    expect((await updater.put(sid, {})).status).toBe(404);
    expect((await updater.delete(sid)).status).toBe(403);
    expect((await deleter.delete(sid)).status).toBe(404);
    expect((await deleter.patch(sid, {})).status).toBe(403);
    const forbidden = await reader.create({ type: 'mediator' });
    expect(forbidden.body).toEqual({ errors: [], message: 'Forbidden' });
    const mine = await manager.create({ type: 'mediator' });
    expect(mine.status).toBe(200);
    expect((await manager.patch(mine.body.endpoint_sid, { name: 'm' })).status).toBe(200);
    expect((await manager.get(mine.body.endpoint_sid)).status).toBe(200);
    expect((await manager.delete(mine.body.endpoint_sid)).status).toBe(204);
  });
});

describe('System Gateway', () => {
  test('every new partner has exactly one, which can be neither created, changed nor deleted', async () => {
    const p = await newPartner();
    const mine = endpointsAs(p);
    const sg = await systemGatewayOf(p);
    const list = await mine.list(`?filter=${encodeURIComponent('type eq "system_gateway"')}`);
    expect(list.body.total).toBe(1);
    expect(sg).toMatchObject({ type: 'system_gateway', partner_sid: p.partner_sid, addresses: [], properties: {} });
    expect(Object.keys(sg)).toEqual(ENDPOINT_KEYS);
    for (const res of [
      await mine.patch(sg.endpoint_sid, { name: 'renamed' }),
      await mine.put(sg.endpoint_sid, { ...sg, name: 'renamed' }),
      await mine.delete(sg.endpoint_sid),
      await mine.create({ type: 'system_gateway' }),
    ]) {
      expect(res.status).toBe(422);
      expectErrorBody(res.body);
      expect(res.body).toMatchObject({ message: 'object validation error', errors: [{ field: 'type' }] });
    }
    expect((await mine.get(sg.endpoint_sid)).body).toEqual(sg);
  });
});
