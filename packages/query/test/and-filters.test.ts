import { andFilters } from '../src';

describe('andFilters', () => {
  test('empty filters vanish; one filter is itself', () => {
    expect(andFilters({}, {})).toEqual({});
    expect(andFilters({ a: 1 }, {})).toEqual({ a: 1 });
  });

  test('non-colliding filters merge at the top level, earlier keys first', () => {
    const merged = andFilters({ partner_sid: 'p' }, { 'addresses.ip': { $eq: '1.1.1.1' } });
    expect(merged).toEqual({ partner_sid: 'p', 'addresses.ip': { $eq: '1.1.1.1' } });
    expect(Object.keys(merged)).toEqual(['partner_sid', 'addresses.ip']);
  });

  test('colliding keys keep both conditions through $and', () => {
    expect(andFilters({ partner_sid: 'p' }, { partner_sid: { $ne: 'q' } })).toEqual({
      partner_sid: 'p',
      $and: [{ partner_sid: { $ne: 'q' } }],
    });
    expect(andFilters({ $or: [{ a: 1 }] }, { $or: [{ b: 1 }] }, { c: 2 })).toEqual({
      $or: [{ a: 1 }],
      c: 2,
      $and: [{ $or: [{ b: 1 }] }],
    });
    expect(andFilters({ $and: [{ a: 1 }] }, { $and: [{ b: 2 }] })).toEqual({ $and: [{ a: 1 }, { $and: [{ b: 2 }] }] });
  });
});
