import type { Collection, FindOptions } from '../../src/doc-store/port';
import type { DocStoreKit } from './doc-store-contract';
import { withPeople } from './doc-store-fixtures';

/** find/findOne options: sort (multi-key, directions, Dates, nested paths), skip, limit, projection. */
export function describeFindOptionsContract(kit: DocStoreKit): void {
  let coll: Collection;
  beforeAll(async () => {
    await withPeople((coll = kit.coll()));
  });
  const order = async (opts: FindOptions, filter = {}) => (await coll.find(filter, opts)).map((d) => d.sid);

  test('sorts ascending and descending on numbers', async () => {
    expect(await order({ sort: { age: 1 } })).toEqual(['p2', 'p1', 'p3', 'p4']);
    expect(await order({ sort: { age: -1 } })).toEqual(['p4', 'p3', 'p1', 'p2']);
  });

  test('sorts on Dates and on nested paths (strings by code unit: upper case first)', async () => {
    expect(await order({ sort: { created: -1 } })).toEqual(['p3', 'p2', 'p1', 'p4']);
    expect(await order({ sort: { 'address.city': 1 } })).toEqual(['p2', 'p1', 'p4', 'p3']);
  });

  test('sorts on several keys, in the order given', async () => {
    const c = kit.coll();
    await c.insertMany([
      { id: 1, g: 'x', n: 2 },
      { id: 2, g: 'y', n: 1 },
      { id: 3, g: 'x', n: 1 },
      { id: 4, g: 'y', n: 3 },
    ]);
    expect((await c.find({}, { sort: { g: 1, n: -1 } })).map((d) => d.id)).toEqual([1, 3, 4, 2]);
    expect((await c.find({}, { sort: { n: 1, g: -1 } })).map((d) => d.id)).toEqual([2, 3, 1, 4]);
  });

  test('skips and limits after sorting', async () => {
    expect(await order({ sort: { age: 1 }, skip: 1, limit: 2 })).toEqual(['p1', 'p3']);
    expect(await order({ sort: { age: 1 }, limit: 1 })).toEqual(['p2']);
    expect(await order({ sort: { age: 1 }, skip: 3 })).toEqual(['p4']);
    expect(await order({ sort: { age: 1 }, skip: 10 })).toEqual([]);
    expect(await coll.find({}, { limit: 3 })).toHaveLength(3);
    expect(await order({ sort: { age: -1 }, limit: 2 }, { active: false })).toEqual(['p4', 'p2']);
  });

  test('findOne takes the first in sort order, or null', async () => {
    expect((await coll.findOne({}, { sort: { age: -1 } }))?.sid).toBe('p4');
    expect((await coll.findOne({ active: true }, { sort: { created: -1 } }))?.sid).toBe('p3');
    expect(await coll.findOne({ name: 'nobody' })).toBeNull();
  });

  test('inclusion projection with dot paths returns only those fields', async () => {
    const [doc] = await coll.find({ sid: 'p1' }, { projection: { name: 1, 'address.city': 1 } });
    expect(doc).toEqual({ name: 'Alice', address: { city: 'Paris' } });
    const one = await coll.findOne({ sid: 'p2' }, { projection: { age: 1 } });
    expect(one).toEqual({ age: 25 });
  });

  test('inclusion through an array of objects keeps the array shape', async () => {
    const doc = await coll.findOne({ sid: 'p1' }, { projection: { sid: 1, 'addresses.ip': 1 } });
    expect(doc).toEqual({ sid: 'p1', addresses: [{ ip: '1.1.2.13' }, { ip: '10.0.0.1' }] });
  });

  test('exclusion projection with dot paths removes only those fields', async () => {
    const doc = await coll.findOne(
      { sid: 'p2' },
      { projection: { 'address.zip': 0, addresses: 0, tags: 0, flags: 0 } },
    );
    expect(doc).toEqual({
      sid: 'p2',
      name: 'bob',
      age: 25,
      active: false,
      score: 7,
      created: new Date('2024-02-01T00:00:00Z'),
      address: { city: 'Berlin' },
    });
  });

  test('never returns _id, even when a projection asks for it', async () => {
    for (const d of await coll.find({})) expect(Object.keys(d)).not.toContain('_id');
    expect(Object.keys((await coll.findOne({ sid: 'p1' }, { projection: { _id: 1, sid: 1 } }))!)).toEqual(['sid']);
    expect(await coll.findOne({ sid: 'p1' }, { projection: { _id: 0, sid: 1 } })).toEqual({ sid: 'p1' });
  });

  test('returns Dates as Dates', async () => {
    const doc = await coll.findOne({ sid: 'p3' });
    expect(doc?.created).toBeInstanceOf(Date);
    expect((doc?.created as Date).toISOString()).toBe('2024-03-01T00:00:00.000Z');
  });
}
