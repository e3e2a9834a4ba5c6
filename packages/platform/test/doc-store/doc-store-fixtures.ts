import type { Collection, Doc, Filter } from '../../src/doc-store/port';

/**
 * Four people covering strings (case!), numbers, booleans, null vs missing, Dates, nested objects,
 * arrays of scalars and arrays of objects. Expectations in the suite are what MongoDB returns.
 */
export const people: Doc[] = [
  {
    sid: 'p1',
    name: 'Alice',
    age: 30,
    active: true,
    score: 9.5,
    flags: 0b0101,
    tags: ['a', 'b'],
    created: new Date('2024-01-01T00:00:00Z'),
    address: { city: 'Paris', zip: '75001' },
    addresses: [
      { ip: '1.1.2.13', port: 5060 },
      { ip: '10.0.0.1', port: 5061 },
    ],
    note: null,
  },
  {
    sid: 'p2',
    name: 'bob',
    age: 25,
    active: false,
    score: 7,
    flags: 0b0010,
    tags: ['b', 'c'],
    created: new Date('2024-02-01T00:00:00Z'),
    address: { city: 'Berlin', zip: '10115' },
    addresses: [{ ip: '2.2.2.2', port: 5060 }],
  },
  {
    sid: 'p3',
    name: 'Carol',
    age: 35,
    active: true,
    flags: 0,
    tags: [],
    created: new Date('2024-03-01T00:00:00Z'),
    address: { city: 'paris' },
    addresses: [],
    note: 'vip',
  },
  {
    sid: 'p4',
    name: 'dave',
    age: 40,
    active: false,
    score: null,
    flags: 0b1000,
    created: new Date('2023-12-01T00:00:00Z'),
    address: { city: 'Rome', zip: '00118' },
  },
];

/** Inserts copies of the people (so no test can alter the fixture) and returns a sid finder. */
export async function withPeople(coll: Collection): Promise<(filter: Filter) => Promise<string[]>> {
  await coll.insertMany(people.map(clone));
  return async (filter) => (await coll.find(filter)).map((d) => String(d.sid)).sort();
}

export function person(sid: string): Doc {
  const p = people.find((d) => d.sid === sid);
  if (!p) throw new Error(sid);
  return clone(p);
}

/** A deep copy whose Dates belong to this realm (structuredClone's would not, under jest). */
export function clone<T>(v: T): T {
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (Array.isArray(v)) return v.map(clone) as T;
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) as T;
  return v;
}
