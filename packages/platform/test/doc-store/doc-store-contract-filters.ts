import type { Collection, Filter } from '../../src/doc-store/port';
import type { DocStoreKit } from './doc-store-contract';
import { withPeople } from './doc-store-fixtures';

type Case = [string, Filter, string[]];

/**
 * Indexes over every path the filters use, some made before the documents are stored and some after:
 * an adapter that answers from its indexes (SQLite's key columns) must give the same answers as a scan.
 */
async function indexEveryPath(coll: Collection, when: 'before' | 'after'): Promise<void> {
  const before = ['name', 'age', 'created', 'tags', 'addresses.ip', 'address.zip', 'flags'];
  const after = ['active', 'score', 'note', 'address.city', 'addresses.port', 'addresses'];
  for (const path of when === 'before' ? before : after) await coll.createIndex({ [path]: 1 });
  if (when === 'after') await coll.createIndex({ active: 1, age: -1, name: 1 });
}

/**
 * Every filter operator the port lists, on every value kind, with MongoDB's answers; `indexed`
 * runs the same table over a collection with indexes on every path.
 */
export function describeFilterContract(kit: DocStoreKit, opts: { indexed?: boolean } = {}): void {
  let sids: (filter: Filter) => Promise<string[]>;
  beforeAll(async () => {
    const coll = kit.coll();
    if (opts.indexed) await indexEveryPath(coll, 'before');
    sids = await withPeople(coll);
    if (opts.indexed) await indexEveryPath(coll, 'after');
  });

  const table = (title: string, cases: Case[]) => {
    test.each(cases)(`${title}: %s`, async (_label, filter, expected) => {
      expect(await sids(filter)).toEqual(expected);
    });
  };

  table('equality', [
    ['string', { name: 'bob' }, ['p2']],
    ['string is case-sensitive', { name: 'BOB' }, []],
    ['number', { age: 30 }, ['p1']],
    ['boolean', { active: true }, ['p1', 'p3']],
    ['Date', { created: new Date('2024-02-01T00:00:00Z') }, ['p2']],
    ['null matches null and missing', { note: null }, ['p1', 'p2', 'p4']],
    ['null on another field', { score: null }, ['p3', 'p4']],
    ['scalar in an array field', { tags: 'b' }, ['p1', 'p2']],
    ['two fields', { active: true, 'address.city': 'Paris' }, ['p1']],
    ['empty filter', {}, ['p1', 'p2', 'p3', 'p4']],
  ]);

  table('$eq $ne', [
    ['$eq number', { age: { $eq: 25 } }, ['p2']],
    ['$eq null', { note: { $eq: null } }, ['p1', 'p2', 'p4']],
    ['$eq Date', { created: { $eq: new Date('2024-03-01T00:00:00Z') } }, ['p3']],
    ['$ne string', { name: { $ne: 'bob' } }, ['p1', 'p3', 'p4']],
    ['$ne boolean', { active: { $ne: true } }, ['p2', 'p4']],
    ['$ne null: present and not null', { note: { $ne: null } }, ['p3']],
    ['$ne on an array: no element equals', { tags: { $ne: 'b' } }, ['p3', 'p4']],
  ]);

  table('$lt $lte $gt $gte', [
    ['$gt number', { age: { $gt: 30 } }, ['p3', 'p4']],
    ['$gte number', { age: { $gte: 30 } }, ['p1', 'p3', 'p4']],
    ['$lt number', { age: { $lt: 30 } }, ['p2']],
    ['$lte number', { age: { $lte: 30 } }, ['p1', 'p2']],
    ['range', { age: { $gt: 25, $lt: 40 } }, ['p1', 'p3']],
    ['null is not a number', { score: { $gt: 8 } }, ['p1']],
    ['$lt skips missing and null', { score: { $lt: 100 } }, ['p1', 'p2']],
    ['strings compare by code unit', { name: { $gt: 'C' } }, ['p2', 'p3', 'p4']],
    [
      'Dates',
      { created: { $gte: new Date('2024-01-01T00:00:00Z'), $lt: new Date('2024-03-01T00:00:00Z') } },
      ['p1', 'p2'],
    ],
    ['through an array of objects', { 'addresses.port': { $gt: 5060 } }, ['p1']],
    ['a Date never matches null, missing or another type', { note: { $lt: new Date('2100-01-01T00:00:00Z') } }, []],
    ['a Date bound from below skips null too', { score: { $gte: new Date(0) } }, []],
  ]);

  table('$in $nin', [
    ['$in strings', { name: { $in: ['bob', 'dave', 'zed'] } }, ['p2', 'p4']],
    ['$in on an array field', { tags: { $in: ['c', 'z'] } }, ['p2']],
    ['$in with null matches missing', { note: { $in: [null, 'vip'] } }, ['p1', 'p2', 'p3', 'p4']],
    ['$in Dates', { created: { $in: [new Date('2024-03-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z')] } }, ['p3']],
    ['$in empty', { name: { $in: [] } }, []],
    ['$nin strings', { name: { $nin: ['bob', 'dave'] } }, ['p1', 'p3']],
    ['$nin on an array: no element in the list', { tags: { $nin: ['a', 'c'] } }, ['p3', 'p4']],
    ['$nin with null excludes missing', { score: { $nin: [null] } }, ['p1', 'p2']],
  ]);

  table('$exists', [
    ['true: null counts as present', { score: { $exists: true } }, ['p1', 'p2', 'p4']],
    ['false', { score: { $exists: false } }, ['p3']],
    ['empty array is present', { tags: { $exists: true } }, ['p1', 'p2', 'p3']],
    ['nested', { 'address.zip': { $exists: false } }, ['p3']],
    ['through an array of objects', { 'addresses.ip': { $exists: true } }, ['p1', 'p2']],
  ]);

  table('$regex', [
    ['string pattern', { name: { $regex: 'a' } }, ['p3', 'p4']],
    ["$options 'i'", { name: { $regex: 'a', $options: 'i' } }, ['p1', 'p3', 'p4']],
    ['anchored, nested', { 'address.city': { $regex: '^paris$', $options: 'i' } }, ['p1', 'p3']],
    ['RegExp value', { name: /^D/i }, ['p4']],
    ['$regex with a RegExp', { name: { $regex: /^b/ } }, ['p2']],
    ['on an array field', { tags: { $regex: '^c' } }, ['p2']],
    ['never matches non-strings', { age: { $regex: '3' } }, []],
  ]);

  table('$and $or $not', [
    ['$and', { $and: [{ active: true }, { age: { $gt: 30 } }] }, ['p3']],
    ['$or', { $or: [{ name: 'bob' }, { age: { $gte: 40 } }] }, ['p2', 'p4']],
    ['$or with a field beside it', { active: false, $or: [{ age: 25 }, { age: 30 }] }, ['p2']],
    ['nested $and in $or', { $or: [{ $and: [{ active: true }, { age: 30 }] }, { name: 'dave' }] }, ['p1', 'p4']],
    ['$not of an operator includes missing', { score: { $not: { $gt: 8 } } }, ['p2', 'p3', 'p4']],
    ['$not of a range', { age: { $not: { $gt: 25, $lt: 40 } } }, ['p2', 'p4']],
    ['$not of a RegExp', { name: { $not: /^[A-Z]/ } }, ['p2', 'p4']],
    ['$not of $regex with $options', { name: { $not: { $regex: 'A', $options: 'i' } } }, ['p2']],
  ]);

  table('$elemMatch', [
    ['all conditions on one element', { addresses: { $elemMatch: { ip: '1.1.2.13', port: 5060 } } }, ['p1']],
    [
      'conditions split over two elements do not match',
      { addresses: { $elemMatch: { ip: '1.1.2.13', port: 5061 } } },
      [],
    ],
    ['…while dot paths match any element each', { 'addresses.ip': '1.1.2.13', 'addresses.port': 5061 }, ['p1']],
    ['operators inside', { addresses: { $elemMatch: { port: { $gte: 5061 }, ip: { $regex: '^10\\.' } } } }, ['p1']],
    ['on scalars', { tags: { $elemMatch: { $gte: 'c' } } }, ['p2']],
    ['on scalars, range', { tags: { $elemMatch: { $gt: 'a', $lt: 'c' } } }, ['p1', 'p2']],
  ]);

  table('$bitsAnySet', [
    ['one bit', { flags: { $bitsAnySet: 0b0100 } }, ['p1']],
    ['any of several bits', { flags: { $bitsAnySet: 0b1010 } }, ['p2', 'p4']],
    ['bit positions', { flags: { $bitsAnySet: [0, 3] } }, ['p1', 'p4']],
    ['no bits set never matches', { flags: { $bitsAnySet: 0 } }, []],
    ['combined with $not', { flags: { $not: { $bitsAnySet: 0b0001 } } }, ['p2', 'p3', 'p4']],
  ]);

  table('dot paths', [
    ['into a nested object', { 'address.city': 'Paris' }, ['p1']],
    ['through an array of objects: any element', { 'addresses.ip': '1.1.2.13' }, ['p1']],
    ['through an array of objects: several docs', { 'addresses.port': 5060 }, ['p1', 'p2']],
    ['missing nested field is null', { 'address.zip': null }, ['p3']],
    ['$in on a nested field', { 'address.city': { $in: ['Rome', 'Berlin'] } }, ['p2', 'p4']],
  ]);
}
