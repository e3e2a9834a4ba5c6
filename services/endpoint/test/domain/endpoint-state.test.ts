import {
  applyUpdate,
  buildEndpoint,
  inapplicableProperties,
  type GeneratedValues,
} from '../../src/domain/endpoint-state';
import { generateValues } from '../../src/domain/generate';

const generated: GeneratedValues = {
  voipToken: 'token-1',
  properties: {
    account_sid: 'acc',
    api_url: 'https://h/x/v1',
    login: 'login',
    password: 'secret',
    subscriber_sid: 'sub',
  },
};

describe('buildEndpoint', () => {
  test('Endpoint table defaults', () => {
    const e = buildEndpoint({ type: 'third_party', addresses: [{ ip: '10.0.0.1' }] }, generated);
    expect(e).toMatchObject({
      name: 'N/A',
      capacity: 0,
      cps_limit: null,
      auth_required: true,
      attributes: {},
      properties: {},
      transformations: [],
      out_sip_username: null,
      out_sip_password: null,
      voip_token: 'token-1',
    });
    expect(e.addresses[0].port).toBe(5060);
  });

  test('hosted types get their generated properties and writable defaults, voip_token null', () => {
    expect(buildEndpoint({ type: 'conference' }, generated).properties).toEqual({
      account_sid: 'acc',
      api_url: 'https://h/x/v1',
      container_sid: null,
      login: 'login',
      password: 'secret',
      subscriber_sid: 'sub',
    });
    expect(buildEndpoint({ type: 'mediator' }, generated).properties).toEqual({
      account_sid: 'acc',
      api_url: 'https://h/x/v1',
      login: 'login',
      password: 'secret',
    });
    const vm = buildEndpoint({ type: 'voicemail', properties: { max_duration: 60, login: 'ignored' } }, generated);
    expect(vm.voip_token).toBeNull();
    expect(vm.properties).toEqual({
      account_sid: 'acc',
      api_url: 'https://h/x/v1',
      callback_method: 'POST',
      callback_url: null,
      container_sid: null,
      greeting: null,
      login: 'login',
      max_duration: 60,
      password: 'secret',
    });
    expect(buildEndpoint({ type: 'conference_playback' }, generated).properties).toMatchObject({
      conference_endpoint_sid: null,
    });
  });

  test('generated values: api_url per type under the configured root, random credentials', () => {
    const a = generateValues('flexml', 'https://api.example.test');
    const b = generateValues('flexml', 'https://api.example.test');
    expect(a.properties.api_url).toBe('https://api.example.test/flexml/v1');
    expect(generateValues('conference', 'https://x').properties.api_url).toBe('https://x/conference/v1');
    expect(a.properties.password).not.toBe(b.properties.password);
    expect(a.properties.login).not.toBe(b.properties.login);
    expect(a.properties.password.length).toBeGreaterThanOrEqual(20);
  });
});

describe('applyUpdate', () => {
  const vm = buildEndpoint(
    { type: 'voicemail', attributes: { key: 'k', value: 'v' }, properties: { greeting: 'g1', max_duration: 30 } },
    generated,
  );

  test('merges attributes and properties key by key; generated properties never change', () => {
    const next = applyUpdate(
      vm,
      { attributes: { value: 'v2' }, properties: { greeting: 'g2', password: 'hack' } },
      false,
    );
    expect(next.attributes).toEqual({ key: 'k', value: 'v2' });
    expect(next.properties).toMatchObject({ greeting: 'g2', max_duration: 30, password: 'secret' });
  });

  test('replaceNested replaces attributes and writable properties whole (back to defaults)', () => {
    const next = applyUpdate(vm, { attributes: { did_group_id: 'd' }, properties: { greeting: 'g2' } }, true);
    expect(next.attributes).toEqual({ did_group_id: 'd' });
    expect(next.properties).toMatchObject({
      greeting: 'g2',
      max_duration: null,
      callback_method: 'POST',
      login: 'login',
    });
  });

  test('arrays are replaced whole, fields not given stay', () => {
    const tp = buildEndpoint(
      { type: 'third_party', name: 'a', addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] },
      generated,
    );
    const next = applyUpdate(tp, { addresses: [{ ip: '10.0.0.3', port: 5070 }] }, false);
    expect(next.addresses.map((a) => `${a.ip}:${a.port}`)).toEqual(['10.0.0.3:5070']);
    expect(next.name).toBe('a');
  });

  test('properties a type lacks are reported, read-only ones are not', () => {
    expect(inapplicableProperties('mediator', { container_sid: 'x', login: 'y' })).toEqual(['container_sid']);
    expect(inapplicableProperties('third_party', { greeting: 'g' })).toEqual(['greeting']);
    expect(inapplicableProperties('voicemail', { greeting: 'g', container_sid: null })).toEqual([]);
  });
});
