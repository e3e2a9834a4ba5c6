/**
 * Which values of one field a MongoDB filter can possibly match, as a key range of an index — the
 * input of the ordered index scan (nedb-ordered-scan.ts).
 *
 * The range is a *necessary* condition: every matching document has the field inside it (or, for
 * a field holding an array, at least one element inside it), so walking the index over the range
 * meets every match. It may be wider than the filter; the scan still runs the full matcher.
 *
 * Bounds are intersected only inside one operator object (`{d: {$gt: a, $lt: b}}`), which NeDB
 * applies to a single array element. Separate clauses of a conjunction may be met by different
 * elements of an array, so their ranges are not intersected: the best single one is kept instead.
 * A disjunction takes the hull of its branches' ranges.
 */
import { types } from 'node:util';
import type { Filter } from './port';
import { nedbCompare } from './nedb-internals';
import { isPlainObject } from './nedb-query';

export interface Bound {
  value: unknown;
  inclusive: boolean;
}
/** A missing bound is unbounded on that side. */
export interface KeyRange {
  lower?: Bound;
  upper?: Bound;
}
/** 1: the walk goes up from `lower`; -1: down from `upper`. */
export type Direction = 1 | -1;

/**
 * The narrowest necessary range of `field` that `filter` yields for a walk in `dir`, or `{}` when
 * the filter does not bound it. "Narrowest" favours the bound the walk starts from.
 */
export function keyRange(filter: Filter, field: string, dir: Direction): KeyRange {
  const candidates: KeyRange[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(cond)) {
      for (const sub of cond) if (isPlainObject(sub)) candidates.push(keyRange(sub, field, dir));
    } else if (key === '$or' && Array.isArray(cond) && cond.length > 0 && cond.every(isPlainObject)) {
      candidates.push(cond.map((sub) => keyRange(sub as Filter, field, dir)).reduce(hull));
    } else if (key === field) {
      candidates.push(conditionRange(cond));
    }
  }
  return candidates.reduce((best, r) => (better(r, best, dir) ? r : best), {} as KeyRange);
}

/** True when no value lies in the range. */
export function isEmptyRange(r: KeyRange): boolean {
  if (!r.lower || !r.upper) return false;
  const c = nedbCompare(r.lower.value, r.upper.value);
  return c > 0 || (c === 0 && !(r.lower.inclusive && r.upper.inclusive));
}

/** True when `key` is not below the range's lower bound. */
export function aboveLower(r: KeyRange, key: unknown): boolean {
  if (!r.lower) return true;
  const c = nedbCompare(key, r.lower.value);
  return c > 0 || (c === 0 && r.lower.inclusive);
}

/** True when `key` is not above the range's upper bound. */
export function belowUpper(r: KeyRange, key: unknown): boolean {
  if (!r.upper) return true;
  const c = nedbCompare(key, r.upper.value);
  return c < 0 || (c === 0 && r.upper.inclusive);
}

/** Values an index key can be compared with meaningfully (NaN compares equal to everything). */
function isScalar(v: unknown): boolean {
  return (
    typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v)) || types.isDate(v)
  );
}

/**
 * `{f: null}` matches null and missing values, which NeDB's order puts below every other value
 * (missing, i.e. undefined, below null): the range is everything up to null.
 */
const NULL_RANGE: KeyRange = { upper: { value: null, inclusive: true } };

function conditionRange(cond: unknown): KeyRange {
  if (cond === null) return NULL_RANGE;
  if (isScalar(cond)) return { lower: { value: cond, inclusive: true }, upper: { value: cond, inclusive: true } };
  if (!isPlainObject(cond) || !Object.keys(cond).every((k) => k.startsWith('$'))) return {};
  let r: KeyRange = {};
  for (const [op, v] of Object.entries(cond)) {
    if (op === '$in' && Array.isArray(v) && v.length > 0 && v.every(isScalar)) {
      r = intersect(r, v.map((x) => conditionRange(x)).reduce(hull));
    }
    if (op === '$eq' && v === null) r = intersect(r, NULL_RANGE);
    if (!isScalar(v)) continue;
    if (op === '$eq') r = intersect(r, conditionRange(v));
    else if (op === '$gt' || op === '$gte') r = intersect(r, { lower: { value: v, inclusive: op === '$gte' } });
    else if (op === '$lt' || op === '$lte') r = intersect(r, { upper: { value: v, inclusive: op === '$lte' } });
  }
  return r;
}

/** Lower bound `a` is tighter (higher) than `b`. */
function higherLower(a: Bound | undefined, b: Bound | undefined): boolean {
  if (!a) return false;
  if (!b) return true;
  const c = nedbCompare(a.value, b.value);
  return c > 0 || (c === 0 && !a.inclusive && b.inclusive);
}

/** Upper bound `a` is tighter (lower) than `b`. */
function lowerUpper(a: Bound | undefined, b: Bound | undefined): boolean {
  if (!a) return false;
  if (!b) return true;
  const c = nedbCompare(a.value, b.value);
  return c < 0 || (c === 0 && !a.inclusive && b.inclusive);
}

function intersect(a: KeyRange, b: KeyRange): KeyRange {
  const lower = higherLower(b.lower, a.lower) ? b.lower : a.lower;
  const upper = lowerUpper(b.upper, a.upper) ? b.upper : a.upper;
  return { ...(lower && { lower }), ...(upper && { upper }) };
}

function hull(a: KeyRange, b: KeyRange): KeyRange {
  const lower = a.lower && b.lower ? (higherLower(a.lower, b.lower) ? b.lower : a.lower) : undefined;
  const upper = a.upper && b.upper ? (lowerUpper(a.upper, b.upper) ? b.upper : a.upper) : undefined;
  return { ...(lower && { lower }), ...(upper && { upper }) };
}

/** `a` serves a walk in `dir` better than `b`: a tighter starting bound, then a tighter far bound. */
function better(a: KeyRange, b: KeyRange, dir: Direction): boolean {
  const [start, far] = dir === 1 ? ([higherLower, lowerUpper] as const) : ([lowerUpper, higherLower] as const);
  const [aStart, bStart, aFar, bFar] =
    dir === 1 ? [a.lower, b.lower, a.upper, b.upper] : [a.upper, b.upper, a.lower, b.lower];
  if (start(aStart, bStart)) return true;
  if (start(bStart, aStart)) return false;
  return far(aFar, bFar);
}
