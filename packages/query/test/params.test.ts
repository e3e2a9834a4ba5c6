import fc from 'fast-check';
import { BadRequestError } from '@patchbay/contracts';
import { defineListSpec } from '../src/fields';
import { parseFieldParams, parseListParams } from '../src/params';

const callDrs = defineListSpec({
  fields: {
    dr_sid: 'uuid',
    partner_sid: 'uuid',
    date_stop: 'date',
    date_start: 'date',
    duration: 'integer',
    direction: 'string',
  },
  selectable: ['price', 'properties'],
  defaultOrder: { field: 'date_stop', dir: 'desc' },
  sidField: 'dr_sid',
  cursor: { orderFields: ['date_stop'] },
  countable: false,
});
const countries = defineListSpec({
  fields: { iso_3166_alpha_3: 'string', common_name: 'string', iso_3166_numeric: 'integer', 'addresses.ip': 'string' },
  defaultOrder: { field: 'common_name', dir: 'asc' },
  sidField: 'iso_3166_alpha_3',
});
const SID = '1e4b0f6c-55d4-4d4e-9b6f-0c7f8a1b2c3d';
const SID2 = '2e4b0f6c-55d4-4d4e-9b6f-0c7f8a1b2c3d';

/** Expects a 400 and returns the parameters it names, in order. */
function badFields(fn: () => unknown): (string | null)[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    expect((e as BadRequestError).status).toBe(400);
    return (e as BadRequestError).errors.map((x) => x.field);
  }
  throw new Error('expected a BadRequestError');
}

describe('parseListParams: defaults and valid combinations', () => {
  it('defaults: limit 10, offset 0, the spec default order, no filter', () => {
    expect(parseListParams({}, countries)).toEqual({
      limit: 10,
      offset: 0,
      order: { kind: 'field', field: 'common_name', dir: 'asc' },
      filter: {},
    });
  });
  it('limit+offset+order', () => {
    expect(parseListParams({ limit: '1000', offset: '20', order: 'iso_3166_numeric desc' }, countries)).toMatchObject({
      limit: 1000,
      offset: 20,
      order: { field: 'iso_3166_numeric', dir: 'desc' },
    });
  });
  it.each([
    [{ after: SID }, { after: SID }],
    [
      { before: SID, limit: '5' },
      { before: SID, limit: 5 },
    ],
    [
      { after: SID, before: SID2, order: 'date_stop asc' },
      { after: SID, before: SID2, order: { kind: 'field', field: 'date_stop', dir: 'asc' } },
    ],
    [
      { after: SID, offset: '0' },
      { after: SID, offset: 0 },
    ],
  ])('after/before combination %j', (query, expected) => {
    expect(parseListParams(query, callDrs)).toMatchObject(expected);
  });
  it('reads order as attr, attr asc|desc (space or +, any case) and shuffle', () => {
    const order = (o: string) => parseListParams({ order: o }, countries).order;
    expect(order('common_name')).toEqual({ kind: 'field', field: 'common_name', dir: 'asc' });
    expect(order('common_name DESC')).toEqual({ kind: 'field', field: 'common_name', dir: 'desc' });
    expect(order('common_name+desc')).toEqual({ kind: 'field', field: 'common_name', dir: 'desc' });
    expect(order(' common_name  asc ')).toEqual({ kind: 'field', field: 'common_name', dir: 'asc' });
    expect(order('shuffle')).toEqual({ kind: 'shuffle' });
  });
  it('reads seed with shuffle only: a valid one is kept, a malformed one is a 400 naming seed', () => {
    expect(parseListParams({ order: 'shuffle', seed: 'Ab-9_x' }, countries).order).toEqual({
      kind: 'shuffle',
      seed: 'Ab-9_x',
    });
    expect(parseListParams({ order: 'common_name', seed: '!!' }, countries).order).toEqual({
      kind: 'field',
      field: 'common_name',
      dir: 'asc',
    });
    for (const seed of ['', 'a b', 'x'.repeat(65), '%41']) {
      expect(() => parseListParams({ order: 'shuffle', seed }, countries)).toThrow(
        expect.objectContaining({ errors: [expect.objectContaining({ field: 'seed' })] }),
      );
    }
  });
  it('compiles the filter and reads include/exclude fields', () => {
    expect(
      parseListParams(
        { filter: 'iso_3166_numeric gt 5', include_fields: 'common_name, addresses.ip', exclude_fields: 'addresses' },
        countries,
      ),
    ).toMatchObject({
      filter: { iso_3166_numeric: { $gt: 5 } },
      include: ['common_name', 'addresses.ip'],
      exclude: ['addresses'],
    });
  });
  it('ignores unknown parameters, including camelCase look-alikes', () => {
    expect(parseListParams({ includeFields: 'nope', foo: ['x', 'y'], Limit: 'abc' }, countries)).toMatchObject({
      limit: 10,
    });
  });
  it('treats empty filter and field lists as absent', () => {
    expect(parseListParams({ filter: '', include_fields: '', exclude_fields: ' , ' }, countries)).toEqual(
      parseListParams({}, countries),
    );
  });
  it('uses a cursor order field by default with after/before when the default order is not one', () => {
    const spec = defineListSpec({ ...callDrs, defaultOrder: { field: 'duration', dir: 'desc' } });
    expect(parseListParams({}, spec).order).toEqual({ kind: 'field', field: 'duration', dir: 'desc' });
    expect(parseListParams({ after: SID }, spec).order).toEqual({ kind: 'field', field: 'date_stop', dir: 'asc' });
  });
});

describe('parseListParams: every invalid value is a 400 naming its parameter', () => {
  it.each([
    [{ limit: '1001' }, 'limit'],
    [{ limit: '-1' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ limit: '' }, 'limit'],
    [{ limit: '1e3' }, 'limit'],
    [{ limit: ' 5' }, 'limit'],
    [{ offset: '-1' }, 'offset'],
    [{ offset: '2.0' }, 'offset'],
    [{ offset: 'x' }, 'offset'],
    [{ offset: '' }, 'offset'],
    [{ offset: '99999999999999999999' }, 'offset'],
    [{ order: 'nope' }, 'order'],
    [{ order: 'common_name sideways' }, 'order'],
    [{ order: 'common_name asc desc' }, 'order'],
    [{ order: '' }, 'order'],
    [{ order: 'constructor' }, 'order'],
    [{ after: SID }, 'after'],
    [{ before: SID }, 'before'],
    [{ filter: 'nope eq 1' }, 'filter'],
    [{ filter: 'common_name eq' }, 'filter'],
    [{ include_fields: 'nope' }, 'include_fields'],
    [{ exclude_fields: 'common_name,bad.path' }, 'exclude_fields'],
    [{ include_fields: 'addresses.i' }, 'include_fields'],
    [{ limit: ['1', '2'] }, 'limit'],
    [{ filter: { a: 'b' } }, 'filter'],
  ])('countries %j → %s', (query, field) => {
    expect(badFields(() => parseListParams(query, countries))).toEqual([field]);
  });
  it.each([
    [{ after: SID, offset: '10' }, 'offset'],
    [{ before: SID, offset: '1' }, 'offset'],
    [{ after: SID, order: 'duration' }, 'order'],
    [{ before: SID, order: 'shuffle' }, 'order'],
    [{ after: 'not-a-sid' }, 'after'],
    [{ before: '' }, 'before'],
    [{ after: `${SID}x` }, 'after'],
  ])('call_drs %j → %s', (query, field) => {
    expect(badFields(() => parseListParams(query, callDrs))).toEqual([field]);
  });
  it('reports every bad parameter in one 400, in a fixed order', () => {
    expect(
      badFields(() =>
        parseListParams(
          { exclude_fields: 'x', filter: 'x eq 1', order: 'x', offset: '5', limit: '0', after: SID },
          callDrs,
        ),
      ),
    ).toEqual(['limit', 'offset', 'order', 'filter', 'exclude_fields']);
  });
  it('never throws anything but a 400 for any string values', () => {
    const names = [
      'limit',
      'offset',
      'order',
      'after',
      'before',
      'filter',
      'include_fields',
      'exclude_fields',
      'other',
    ];
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...names),
          fc.oneof(fc.string(), fc.constantFrom(SID, '10', '0', 'date_stop desc')),
        ),
        (query) => {
          try {
            parseListParams(query, callDrs);
          } catch (e) {
            expect(e).toBeInstanceOf(BadRequestError);
            for (const err of (e as BadRequestError).errors) expect(names).toContain(err.field);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('field selection', () => {
  it('accepts fields, selectable paths, the sid and their ancestors', () => {
    expect(parseFieldParams({ include_fields: 'dr_sid,price,properties,date_stop' }, callDrs)).toEqual({
      include: ['dr_sid', 'price', 'properties', 'date_stop'],
    });
    expect(parseFieldParams({ include_fields: 'addresses' }, countries)).toEqual({ include: ['addresses'] });
  });
  it('names the parameter and lists the unknown paths', () => {
    try {
      parseFieldParams({ include_fields: 'a,b', exclude_fields: 'c' }, countries);
    } catch (e) {
      expect((e as BadRequestError).errors).toEqual([
        { field: 'include_fields', message: "unknown fields 'a', 'b'", reference_sid: null },
        { field: 'exclude_fields', message: "unknown field 'c'", reference_sid: null },
      ]);
      return;
    }
    throw new Error('expected a 400');
  });
});

describe('defineListSpec', () => {
  it('refuses a spec that contradicts itself, at start-up', () => {
    expect(() => defineListSpec({ ...countries, sidField: 'sid' })).toThrow(/sidField 'sid' is not a field/);
    expect(() => defineListSpec({ ...countries, sortable: ['nope'] })).toThrow(/sortable 'nope'/);
    expect(() => defineListSpec({ ...countries, cursor: { orderFields: ['zzz'] } })).toThrow(
      /cursor order field 'zzz'/,
    );
    expect(() => defineListSpec({ ...countries, defaultOrder: { field: 'x', dir: 'asc' } })).toThrow(
      /defaultOrder 'x'/,
    );
  });
  it('limits order to `sortable` when given', () => {
    const spec = defineListSpec({ ...countries, sortable: ['common_name'] });
    expect(badFields(() => parseListParams({ order: 'iso_3166_numeric' }, spec))).toEqual(['order']);
  });
});
