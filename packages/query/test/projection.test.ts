import fc from 'fast-check';
import { applyFieldFilter } from '../src/projection';

const endpoint = {
  addresses: [
    { ip: '1.1.2.13', port: 5060, srtp: false },
    { ip: '1.1.2.14', port: 5061, srtp: true },
  ],
  attributes: { a: 1, b: { c: 2, d: 3 } },
  endpoint_sid: 'e1',
  name: 'x',
  properties: null,
  type: 'flexml',
};

describe('applyFieldFilter', () => {
  it('returns the item itself with no lists', () => {
    expect(applyFieldFilter(endpoint)).toBe(endpoint);
    expect(applyFieldFilter(endpoint, [], [])).toBe(endpoint);
  });
  it('keeps only included top-level keys, in the item key order', () => {
    const out = applyFieldFilter(endpoint, ['type', 'endpoint_sid']);
    expect(out).toEqual({ endpoint_sid: 'e1', type: 'flexml' });
    expect(Object.keys(out)).toEqual(['endpoint_sid', 'type']);
  });
  it('follows dot paths into objects and through arrays', () => {
    expect(applyFieldFilter(endpoint, ['attributes.b.d', 'addresses.ip'])).toEqual({
      addresses: [{ ip: '1.1.2.13' }, { ip: '1.1.2.14' }],
      attributes: { b: { d: 3 } },
    });
  });
  it('lets a whole subtree win over deeper paths, in any order', () => {
    expect(applyFieldFilter(endpoint, ['attributes.a', 'attributes'])).toEqual({ attributes: endpoint.attributes });
    expect(applyFieldFilter(endpoint, ['attributes', 'attributes.a'])).toEqual({ attributes: endpoint.attributes });
  });
  it('keeps a null or scalar met on the way, and ignores absent keys', () => {
    expect(applyFieldFilter(endpoint, ['properties.login', 'name.first', 'nope'])).toEqual({
      name: 'x',
      properties: null,
    });
  });
  it('excludes keys and nested paths, through arrays', () => {
    expect(
      applyFieldFilter(endpoint, undefined, ['addresses.port', 'addresses.srtp', 'attributes.b', 'properties', 'name']),
    ).toEqual({
      addresses: [{ ip: '1.1.2.13' }, { ip: '1.1.2.14' }],
      attributes: { a: 1 },
      endpoint_sid: 'e1',
      type: 'flexml',
    });
  });
  it('applies include first, then exclude', () => {
    expect(applyFieldFilter(endpoint, ['attributes', 'name'], ['attributes.b'])).toEqual({
      attributes: { a: 1 },
      name: 'x',
    });
  });
  it('does not touch the input and keeps a __proto__ key as data', () => {
    const item = JSON.parse('{"a":{"__proto__":{"x":1},"y":2}}') as Record<string, unknown>;
    const out = applyFieldFilter(item, ['a.__proto__']);
    expect(Object.hasOwn(out.a as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(item).toEqual(JSON.parse('{"a":{"__proto__":{"x":1},"y":2}}'));
  });
  it('including every key is the identity; excluding every key leaves {}', () => {
    const key = fc.string().filter((k) => !k.includes('.')); // a dotted key cannot be named by a dot path
    fc.assert(
      fc.property(fc.object({ key }), (obj) => {
        const keys = Object.keys(obj);
        expect(applyFieldFilter(obj, keys.length ? keys : undefined)).toEqual(obj);
        if (keys.length) expect(applyFieldFilter(obj, undefined, keys)).toEqual({});
      }),
      { numRuns: 300 },
    );
  });
});
