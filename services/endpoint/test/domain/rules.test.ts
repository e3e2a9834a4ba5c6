import type { EndpointType } from '@patchbay/contracts';
import { applyUpdate, buildEndpoint, type GeneratedValues } from '../../src/domain/endpoint-state';
import { AUTH_REQUIRED_SCOPE, changedPaths, createViolations, updateViolations } from '../../src/domain/rules';

const generated: GeneratedValues = {
  voipToken: 't',
  properties: { account_sid: 'a', api_url: 'u', login: 'l', password: 'p', subscriber_sid: 's' },
};
const ALL = ['endpoints.manage', AUTH_REQUIRED_SCOPE];
const NO_AUTH_SCOPE = ['endpoints.manage'];
const fields = (items: Array<{ field: string | null }>) => items.map((i) => i.field);

describe('createViolations', () => {
  test('system_gateway cannot be created', () => {
    expect(fields(createViolations(buildEndpoint({ type: 'system_gateway' }, generated), undefined, ALL))).toEqual([
      'type',
    ]);
  });

  test('third_party needs an address; hosted types take none', () => {
    expect(fields(createViolations(buildEndpoint({ type: 'third_party' }, generated), undefined, ALL))).toEqual([
      'addresses',
    ]);
    expect(
      fields(
        createViolations(buildEndpoint({ type: 'flexml', addresses: [{ ip: '10.0.0.1' }] }, generated), undefined, ALL),
      ),
    ).toEqual(['addresses']);
  });

  test('auth_required other than the default needs the scope: the exact item of the interface', () => {
    const e = buildEndpoint({ type: 'third_party', addresses: [{ ip: '10.0.0.1' }], auth_required: false }, generated);
    expect(createViolations(e, undefined, NO_AUTH_SCOPE)).toEqual([
      { field: 'auth_required', message: 'partner does not have permissions to set this value', reference_sid: null },
    ]);
    expect(createViolations(e, undefined, ALL)).toEqual([]);
  });

  test('writable properties of other types are refused by name', () => {
    const props = { container_sid: null, greeting: 'x' };
    expect(
      fields(createViolations(buildEndpoint({ type: 'mediator', properties: props }, generated), props, ALL)),
    ).toEqual(['properties.container_sid', 'properties.greeting']);
  });
});

describe('updateViolations (Rule 2: what may change after creation)', () => {
  const make = (type: EndpointType) =>
    buildEndpoint({ type, ...(type === 'third_party' ? { addresses: [{ ip: '10.0.0.1' }] } : {}) }, generated);

  test.each(['mediator', 'conference', 'conference_playback', 'flexml', 'voicemail', 'third_party'] as const)(
    '%s: name and capacity change',
    (type) => {
      const e = make(type);
      expect(updateViolations(e, applyUpdate(e, { name: 'n', capacity: 5 }, false), undefined, ALL)).toEqual([]);
    },
  );

  test.each(['mediator', 'conference', 'conference_playback', 'flexml'] as const)(
    '%s: anything else is a 422 naming the field',
    (type) => {
      const e = make(type);
      const v = updateViolations(
        e,
        applyUpdate(
          e,
          { attributes: { key: 'k' }, transformations: [{}], out_sip_username: 'u', auth_required: false },
          false,
        ),
        undefined,
        ALL,
      );
      expect(fields(v).sort()).toEqual(['attributes.key', 'auth_required', 'out_sip_username', 'transformations']);
    },
  );

  test('voicemail: also its writable properties', () => {
    const e = make('voicemail');
    const props = {
      callback_method: 'GET' as const,
      callback_url: 'https://cb.example/x',
      container_sid: null,
      greeting: 'g',
      max_duration: 12,
    };
    expect(updateViolations(e, applyUpdate(e, { properties: props }, false), props, ALL)).toEqual([]);
    expect(fields(updateViolations(e, applyUpdate(e, { out_sip_password: 'x' }, false), undefined, ALL))).toEqual([
      'out_sip_password',
    ]);
  });

  test('conference: container_sid is fixed after creation', () => {
    const e = make('conference');
    expect(
      fields(
        updateViolations(e, applyUpdate(e, { properties: { container_sid: 'c' } }, false), { container_sid: 'c' }, ALL),
      ),
    ).toEqual(['properties.container_sid']);
  });

  test('an unchanged field is not a change (a PUT of the object as read is fine)', () => {
    const e = make('flexml');
    const same = applyUpdate(
      e,
      {
        type: 'flexml',
        addresses: [],
        attributes: {},
        transformations: [],
        auth_required: true,
        out_sip_username: null,
        properties: { container_sid: null },
      },
      true,
    );
    expect(changedPaths(e, same)).toEqual([]);
    expect(updateViolations(e, same, { container_sid: null }, NO_AUTH_SCOPE)).toEqual([]);
  });

  test('type never changes; a System Gateway never changes', () => {
    const e = make('third_party');
    expect(fields(updateViolations(e, applyUpdate(e, { type: 'flexml' }, false), undefined, ALL))).toEqual(['type']);
    const sg = buildEndpoint({ type: 'system_gateway' }, generated);
    expect(fields(updateViolations(sg, applyUpdate(sg, { name: 'x' }, false), undefined, ALL))).toEqual(['type']);
  });

  test('third_party: auth_required changes with the scope only; addresses cannot become empty', () => {
    const e = make('third_party');
    expect(updateViolations(e, applyUpdate(e, { auth_required: false }, false), undefined, NO_AUTH_SCOPE)).toEqual([
      { field: 'auth_required', message: 'partner does not have permissions to set this value', reference_sid: null },
    ]);
    expect(updateViolations(e, applyUpdate(e, { auth_required: false }, false), undefined, ALL)).toEqual([]);
    expect(fields(updateViolations(e, applyUpdate(e, { addresses: [] }, false), undefined, ALL))).toEqual([
      'addresses',
    ]);
    expect(
      fields(
        updateViolations(
          e,
          applyUpdate(e, { addresses: [{ ip: '10.0.0.9', subnet_mask: 30 }] }, false),
          undefined,
          ALL,
        ),
      ),
    ).toEqual(['addresses.0.subnet_mask']);
  });
});
