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

  test.each([false, true])(
    'sorts mixed types in MongoDB order: missing/null, numbers, strings, booleans, Dates (indexed: %s)',
    async (indexed) => {
      const c = kit.coll();
      if (indexed) await c.createIndex({ v: 1 });
      const at = new Date('2024-01-01T00:00:00Z');
      await c.insertMany([
        { id: 'date', v: at },
        { id: 'true', v: true },
        { id: 'b', v: 'b' },
        { id: 'two', v: 2 },
        { id: 'missing' },
        { id: 'a', v: 'a' },
        { id: 'iso', v: at.toISOString() },
        { id: 'one', v: 1.5 },
        { id: 'false', v: false },
        { id: 'early', v: new Date('1960-06-01T00:00:00Z') },
      ]);
      const asc = ['missing', 'one', 'two', '2024-01-01T00:00:00.000Z', 'a', 'b', 'false', 'true', 'early', 'date'];
      const ids = async (sort: 1 | -1) =>
        (await c.find({}, { sort: { v: sort } })).map((d) => (d.id === 'iso' ? d.v : d.id));
      expect(await ids(1)).toEqual(asc);
      expect(await ids(-1)).toEqual([...asc].reverse());
    },
  );

  test.each([false, true])(
    'a Date and its ISO string are different values to filters and to sort (indexed: %s)',
    async (indexed) => {
      const c = kit.coll();
      if (indexed) await c.createIndex({ at: 1 });
      const at = new Date('2024-01-01T00:00:00Z');
      await c.insertMany([{ k: 1, at }, { k: 2, at: at.toISOString() }, { k: 3, at: at.getTime() }, { k: 4 }]);
      const ks = async (filter: Record<string, unknown>) => (await c.find(filter, { sort: { k: 1 } })).map((d) => d.k);
      expect(await ks({ at })).toEqual([1]);
      expect(await ks({ at: at.toISOString() })).toEqual([2]);
      expect(await ks({ at: { $gte: new Date(0) } })).toEqual([1]);
      expect(await ks({ at: { $lte: new Date('2100-01-01T00:00:00Z') } })).toEqual([1]);
      expect(await ks({ at: { $gte: '' } })).toEqual([2]);
      expect(await ks({ at: { $gt: 0 } })).toEqual([3]);
      expect(await ks({ at: { $in: [at, null] } })).toEqual([1, 4]);
      expect(await ks({ at: { $ne: at } })).toEqual([2, 3, 4]);
      expect((await c.findOne({ k: 1 }))?.at).toBeInstanceOf(Date);
      expect(typeof (await c.findOne({ k: 2 }))?.at).toBe('string');
    },
  );

  test(
    "a cursor walk over an index (the list routes' row-value pages) visits " + 'every document once, in order',
    async () => {
      const c = kit.coll();
      await c.createIndex({ owner: 1, at: 1, sid: 1 });
      const base = Date.UTC(2024, 0, 1);
      // Several documents per date, so a page boundary falls between equal dates and the sid breaks the tie.
      const docs = Array.from({ length: 60 }, (_, i) => ({
        owner: i % 4 === 0 ? 'other' : 'me',
        at: new Date(base + Math.floor(i / 3) * 1000),
        sid: `s${String((i * 37) % 60).padStart(2, '0')}`,
      }));
      await c.insertMany(docs);
      const expected = docs
        .filter((d) => d.owner === 'me')
        .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.sid < b.sid ? -1 : 1))
        .map((d) => d.sid);
      const seen: string[] = [];
      let last: { at: Date; sid: string } | undefined;
      for (;;) {
        const after = last ? { $or: [{ at: { $gt: last.at } }, { at: { $eq: last.at }, sid: { $gt: last.sid } }] } : {};
        const page = await c.find({ owner: 'me', ...after }, { sort: { at: 1, sid: 1 }, limit: 7 });
        if (page.length === 0) break;
        seen.push(...page.map((d) => String(d.sid)));
        const end = page[page.length - 1];
        last = { at: end.at as Date, sid: String(end.sid) };
      }
      expect(seen).toEqual(expected);
      // And backwards from the end.
      const back: string[] = [];
      let first: { at: Date; sid: string } | undefined;
      for (;;) {
        const before = first
          ? { $or: [{ at: { $lt: first.at } }, { at: { $eq: first.at }, sid: { $lt: first.sid } }] }
          : {};
        const page = await c.find({ owner: 'me', ...before }, { sort: { at: -1, sid: -1 }, limit: 5 });
        if (page.length === 0) break;
        back.push(...page.map((d) => String(d.sid)));
        const end = page[page.length - 1];
        first = { at: end.at as Date, sid: String(end.sid) };
      }
      expect(back).toEqual([...expected].reverse());
    },
  );
}
