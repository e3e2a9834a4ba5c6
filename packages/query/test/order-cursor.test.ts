import { cursorFilter, getPath } from '../src/cursor';
import { defineListSpec } from '../src/fields';
import { buildSort, reverseSort } from '../src/order';

const spec = defineListSpec({
  fields: { dr_sid: 'uuid', date_stop: 'date' },
  defaultOrder: { field: 'date_stop', dir: 'asc' },
  sidField: 'dr_sid',
  cursor: { orderFields: ['date_stop', 'dr_sid'] },
  storePath: (p: string) => (p === 'dr_sid' ? '_sid' : p),
});
const at = { value: new Date('2024-01-01T00:00:00Z'), sid: 's' };

describe('buildSort', () => {
  it('adds the sid as tie-breaker in the same direction, in stored names', () => {
    expect(Object.entries(buildSort(spec, 'date_stop', 'desc'))).toEqual([
      ['date_stop', -1],
      ['_sid', -1],
    ]);
    expect(buildSort(spec, 'dr_sid', 'asc')).toEqual({ _sid: 1 });
    expect(Object.entries(reverseSort({ a: 1, b: -1 }))).toEqual([
      ['a', -1],
      ['b', 1],
    ]);
  });
});

describe('cursorFilter', () => {
  it.each([
    ['asc', 'after', '$gt'],
    ['asc', 'before', '$lt'],
    ['desc', 'after', '$lt'],
    ['desc', 'before', '$gt'],
  ] as const)('%s/%s uses %s on the value, then on the sid among equal values', (dir, side, op) => {
    expect(cursorFilter(spec, 'date_stop', dir, side, at)).toEqual({
      $or: [{ date_stop: { [op]: at.value } }, { date_stop: { $eq: at.value }, _sid: { [op]: 's' } }],
    });
  });
  it('for a nullable field, adds the null records below any value, and walks among them by sid', () => {
    const spec2 = defineListSpec({ ...spec, cursor: { orderFields: ['date_stop'], nullable: ['date_stop'] } });
    expect(cursorFilter(spec2, 'date_stop', 'asc', 'after', at)).toEqual({
      $or: [{ date_stop: { $gt: at.value } }, { date_stop: { $eq: at.value }, _sid: { $gt: 's' } }],
    });
    expect(cursorFilter(spec2, 'date_stop', 'asc', 'before', at)).toEqual({
      $or: [
        { date_stop: { $lt: at.value } },
        { date_stop: { $eq: at.value }, _sid: { $lt: 's' } },
        { date_stop: null },
      ],
    });
    const atNull = { value: null, sid: 's' };
    expect(cursorFilter(spec2, 'date_stop', 'asc', 'after', atNull)).toEqual({
      $or: [{ date_stop: { $ne: null } }, { date_stop: null, _sid: { $gt: 's' } }],
    });
    expect(cursorFilter(spec2, 'date_stop', 'desc', 'after', atNull)).toEqual({ date_stop: null, _sid: { $lt: 's' } });
    expect(cursorFilter(spec2, 'date_stop', 'desc', 'before', { value: undefined, sid: 's' })).toEqual({
      $or: [{ date_stop: { $ne: null } }, { date_stop: null, _sid: { $gt: 's' } }],
    });
  });
  it('refuses a nullable field that is not a cursor order field', () => {
    expect(() => defineListSpec({ ...spec, cursor: { orderFields: ['date_stop'], nullable: ['dr_sid'] } })).toThrow(
      /nullable/,
    );
  });
  it('orders by the sid alone when it is the order field', () => {
    expect(cursorFilter(spec, 'dr_sid', 'desc', 'after', at)).toEqual({ _sid: { $lt: 's' } });
  });
});

describe('getPath', () => {
  it('reads dot paths and stops at non-objects', () => {
    expect(getPath({ a: { b: 1 } }, 'a.b')).toBe(1);
    expect(getPath({ a: null }, 'a.b')).toBeUndefined();
    expect(getPath({ a: 'x' }, 'a.length')).toBeUndefined();
  });
});
