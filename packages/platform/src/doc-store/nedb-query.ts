/**
 * MongoDB filter documents → queries NeDB evaluates with MongoDB's meaning.
 *
 * NeDB speaks most of the query language natively; where its semantics differ this module rewrites
 * the filter so both adapters return the same documents:
 *  - `$eq` is unknown to NeDB: `{f: {$eq: v}}` becomes `{f: v}`;
 *  - `{f: null}` (and `undefined`, which the MongoDB driver sends as null) matches missing or null;
 *  - `$ne`/`$nin` on an array must mean "no element equals", NeDB means "some element differs":
 *    rewritten as `$not` of the positive test; `$in` with null or RegExp members is split likewise;
 *  - `$not` is field-level in MongoDB (`{f: {$not: {$gt: 1}}}`) but document-level in NeDB;
 *  - `$regex` given as a string (with `$options`) becomes a RegExp;
 *  - `$exists` (NeDB gets arrays wrong), `$bitsAnySet` and operator-form `$elemMatch` become `$where`
 *    functions over MongoDB-style path traversal;
 *  - `$lt` `$lte` `$gt` `$gte` against a Date: NeDB compares a null (or an object) with it as a
 *    number, since `typeof null` is 'object' too; MongoDB never compares across types, so a
 *    `$where` keeps only the documents where a Date satisfies the comparison;
 *  - `$and` is flattened into the top level (same meaning), so NeDB's index selection sees its clauses.
 * Everything else passes through unchanged. The result is rebuilt for every call and never stored.
 */
import { types } from 'node:util';
import type { Doc, Filter } from './port';
import { nedbMatch } from './nedb-internals';

type Query = Record<string, unknown>;

/** Translates a MongoDB filter document into an NeDB query. */
export function toNedbQuery(filter: Filter): Query {
  const out: Query = {};
  const and: Query[] = [];
  for (const [key, value] of Object.entries(filter)) {
    let clauses: Query[];
    // Conjuncts are lifted to the top level, where NeDB looks for conditions an index can serve.
    if (key === '$and') clauses = asArray(key, value).flatMap((f) => conjuncts(toNedbQuery(f as Filter)));
    else if (key === '$or') clauses = [{ [key]: asArray(key, value).map((f) => toNedbQuery(f as Filter)) }];
    else if (key === '$nor') clauses = [{ $not: { $or: asArray(key, value).map((f) => toNedbQuery(f as Filter)) } }];
    else if (key.startsWith('$')) clauses = [{ [key]: value }];
    else clauses = fieldClauses(key, value);
    for (const clause of clauses) merge(out, and, clause);
  }
  if (and.length > 0) out.$and = [...((out.$and as Query[] | undefined) ?? []), ...and];
  return out;
}

/**
 * The document an upsert starts from: the filter's equality conditions (top level and inside `$and`),
 * dot paths expanded into nested objects, as MongoDB does.
 */
export function upsertSeed(filter: Filter): Doc {
  const seed: Doc = {};
  const visit = (f: Filter): void => {
    for (const [key, value] of Object.entries(f)) {
      if (key === '$and' && Array.isArray(value)) value.forEach((sub) => visit(sub as Filter));
      if (key.startsWith('$') || types.isRegExp(value)) continue;
      if (isOperatorObject(value)) {
        if ('$eq' in value) setPath(seed, key, value.$eq);
      } else setPath(seed, key, value);
    }
  };
  visit(filter);
  return seed;
}

/**
 * The values a dot path reaches, MongoDB-style: arrays met on the way are searched element by element
 * (and a numeric part may index them); a missing branch yields nothing.
 */
export function reach(value: unknown, parts: readonly string[], out: unknown[] = []): unknown[] {
  if (parts.length === 0) {
    out.push(value);
    return out;
  }
  const [head, ...rest] = parts;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(head) && Number(head) < value.length) reach(value[Number(head)], rest, out);
    for (const el of value) if (isPlainObject(el)) reach(el, parts, out);
  } else if (isPlainObject(value) && value[head] !== undefined) {
    reach(value[head], rest, out);
  }
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !types.isDate(v) && !types.isRegExp(v);
}

function fieldClauses(path: string, cond: unknown): Query[] {
  if (cond === null || cond === undefined) return [nullClause(path)];
  if (isOperatorObject(cond)) return operatorClauses(path, cond);
  return [{ [path]: cond }];
}

function operatorClauses(path: string, ops: Record<string, unknown>): Query[] {
  const native: Query = {};
  const clauses: Query[] = [];
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        clauses.push(arg === null || arg === undefined ? nullClause(path) : { [path]: arg });
        break;
      case '$ne':
        clauses.push({ $not: all(fieldClauses(path, arg ?? null)) });
        break;
      case '$in':
        clauses.push(inClause(path, asArray(op, arg)));
        break;
      case '$nin':
        clauses.push({ $not: inClause(path, asArray(op, arg)) });
        break;
      case '$not':
        clauses.push({ $not: all(types.isRegExp(arg) ? [{ [path]: arg }] : fieldClauses(path, arg)) });
        break;
      case '$regex':
        native.$regex = toRegExp(arg, ops.$options);
        break;
      case '$options':
        if (!('$regex' in ops)) throw new Error('$options without $regex');
        break;
      case '$exists':
        clauses.push(where((doc) => reach(doc, path.split('.')).length > 0 === Boolean(arg)));
        break;
      case '$bitsAnySet':
        clauses.push(bitsAnySet(path, arg));
        break;
      case '$elemMatch':
        clauses.push(elemMatch(path, arg));
        break;
      default:
        native[op] = arg; // $lt $lte $gt $gte $size: NeDB's own meaning is MongoDB's, except for Dates:
        if (types.isDate(arg) && op in DATE_COMPARISONS) clauses.push(dateComparison(path, DATE_COMPARISONS[op], arg));
    }
  }
  return Object.keys(native).length > 0 ? [{ [path]: native }, ...clauses] : clauses;
}

/** `{f: null}`: MongoDB matches null, a missing field, and (through arrays) any element lacking it. */
function nullClause(path: string): Query {
  // NeDB's `$exists: false` is true when any value the path reaches is missing, which is exactly this.
  return { $or: [{ [path]: { $exists: false } }, { [path]: null }] };
}

function inClause(path: string, values: unknown[]): Query {
  const plain = values.filter((v) => v !== null && v !== undefined && !types.isRegExp(v));
  const parts: Query[] = [];
  if (plain.length > 0 || values.length === 0) parts.push({ [path]: { $in: plain } });
  if (plain.length < values.length && values.some((v) => v === null || v === undefined)) parts.push(nullClause(path));
  for (const v of values) if (types.isRegExp(v)) parts.push({ [path]: v });
  return parts.length === 1 ? parts[0] : { $or: parts };
}

function elemMatch(path: string, arg: unknown): Query {
  if (!isPlainObject(arg)) throw new Error('$elemMatch needs an object');
  const keys = Object.keys(arg);
  const operatorForm =
    keys.length > 0 && keys.every((k) => k.startsWith('$') && !['$and', '$or', '$nor', '$where'].includes(k));
  if (!operatorForm) return { [path]: { $elemMatch: toNedbQuery(arg) } };
  // `{scores: {$elemMatch: {$gte: 80}}}`: each element is tested as a value, through a wrapper document.
  const query = toNedbQuery({ v: arg });
  return where((doc) =>
    reach(doc, path.split('.')).some((v) => Array.isArray(v) && v.some((el) => nedbMatch({ v: el }, query))),
  );
}

function bitsAnySet(path: string, arg: unknown): Query {
  const mask = Array.isArray(arg)
    ? arg.reduce<bigint>((m, bit) => m | (1n << BigInt(bit as number)), 0n)
    : typeof arg === 'number' && Number.isInteger(arg)
      ? BigInt(arg)
      : undefined;
  if (mask === undefined) throw new Error('$bitsAnySet needs an integer bitmask or an array of bit positions');
  const test = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && (BigInt(v) & mask) !== 0n;
  return where((doc) => reach(doc, path.split('.')).some((v) => (Array.isArray(v) ? v.some(test) : test(v))));
}

const DATE_COMPARISONS: Record<string, (a: number, b: number) => boolean> = {
  $lt: (a, b) => a < b,
  $lte: (a, b) => a <= b,
  $gt: (a, b) => a > b,
  $gte: (a, b) => a >= b,
};

/** Some Date the path reaches (an array's elements included) satisfies `test` against `arg`. */
function dateComparison(path: string, test: (a: number, b: number) => boolean, arg: Date): Query {
  const ok = (v: unknown): boolean => types.isDate(v) && test(v.getTime(), arg.getTime());
  return where((doc) => reach(doc, path.split('.')).some((v) => (Array.isArray(v) ? v.some(ok) : ok(v))));
}

function toRegExp(pattern: unknown, options: unknown): RegExp {
  const flags = typeof options === 'string' ? options : '';
  if (/[^imsu]/.test(flags)) throw new Error(`unsupported $options '${flags}'`);
  if (types.isRegExp(pattern)) return options === undefined ? pattern : new RegExp(pattern.source, flags);
  if (typeof pattern !== 'string') throw new Error('$regex needs a string or a RegExp');
  return new RegExp(pattern, flags);
}

/** NeDB calls `$where` with the document (or array element) as `this`; it must return a boolean. */
function where(predicate: (doc: unknown) => boolean): Query {
  return {
    $where: function (this: unknown): boolean {
      return predicate(this);
    },
  };
}

/** Adds a clause to the top-level query, keeping simple field conditions there so NeDB can use indexes. */
function merge(out: Query, and: Query[], clause: Query): void {
  const keys = Object.keys(clause);
  if (keys.length === 1 && !(keys[0] in out)) out[keys[0]] = clause[keys[0]];
  else and.push(clause);
}

/** A translated query as the list of its one-key clauses, `$and` flattened: their conjunction is the query. */
function conjuncts(query: Query): Query[] {
  return Object.entries(query).flatMap(([k, v]) => (k === '$and' ? (v as Query[]).flatMap(conjuncts) : [{ [k]: v }]));
}

function all(clauses: Query[]): Query {
  return clauses.length === 1 ? clauses[0] : { $and: clauses };
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function asArray(op: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) throw new Error(`${op} needs an array`);
  return v;
}

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let at: Record<string, unknown> = doc;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(at[part])) at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts[parts.length - 1]] = value;
}
