/**
 * An ordered index scan for NeDB finds that have a limit.
 *
 * Design note. NeDB picks its candidates from at most one index and only for conditions at the top
 * level of the query; then it matches every candidate and, when a sort is asked, sorts all the
 * matches before it applies skip and limit. A page of a large list therefore costs the whole
 * collection, wherever the page is. MongoDB instead walks an index in sort order and stops after
 * skip+limit matches. This module does the same over NeDB's own index trees:
 *
 * - with a sort, it walks an index whose first field (NeDB orders a compound key by its field
 *   names, sorted) is the sort's first key, from the bound the filter puts on that key
 *   (nedb-key-range.ts), and stops once skip+limit documents matched and the walk has left their
 *   last key; the few collected documents are then sorted by the whole sort, exactly as NeDB would;
 * - without a sort, it walks an index the filter bounds, from that bound (a "does anything precede
 *   this record" probe then costs a few steps instead of a full scan).
 *
 * It stands aside (the caller runs NeDB's own find) when NeDB's candidate set is already small (an
 * equality on an indexed field), when NeDB would use a range on another index, when no index fits,
 * and it gives up as soon as it has visited as many documents as NeDB's plan would have matched.
 * A field holding an array makes it give up too: NeDB sorts an array as one value but indexes each
 * element. Limitation: an array at the sort key that the walk never reaches is not detected, so a
 * sort on an array-valued field may order it differently than NeDB's own sort would (the two
 * already differ from MongoDB there).
 */
import { types } from 'node:util';
import type { Filter, FindOptions } from './port';
import {
  nedbCompare,
  nedbDeepCopy,
  nedbDotValue,
  nedbMatch,
  type NedbDoc,
  type NedbFile,
  type NedbIndexNode,
  type NedbIndexView,
  type NedbQuery,
} from './nedb-internals';
import { aboveLower, belowUpper, isEmptyRange, keyRange, type Direction, type KeyRange } from './nedb-key-range';

/** Below this many candidates NeDB's own plan is as cheap as any walk. */
const SMALL_CANDIDATE_SET = 64;

export interface ScanResult {
  /** Deep copies, in sort order, skip and limit applied. */
  docs: NedbDoc[];
  /** Documents the walk matched against the query (its cost). */
  visited: number;
}

interface Plan {
  field: string;
  dir: Direction;
  range: KeyRange;
  index: NedbIndexView;
}

/**
 * Runs `find` as an ordered index scan, or returns undefined when NeDB's own plan should run.
 * Synchronous: call it inside `NedbFile.exclusive` so no write changes the trees meanwhile.
 * `filter` is the MongoDB filter (for the key range); `query` its NeDB translation (for matching).
 */
export function orderedScan(
  file: NedbFile,
  filter: Filter,
  query: NedbQuery,
  opts: FindOptions,
): ScanResult | undefined {
  if (!opts.limit || opts.limit <= 0) return undefined;
  const need = (opts.skip ?? 0) + opts.limit;
  const indexes = file.indexes();
  const plan = choosePlan(indexes, filter, opts);
  if (!plan) return undefined;
  const budget = nedbCandidateCount(indexes, query, plan.field);
  if (budget === undefined || budget <= Math.max(SMALL_CANDIDATE_SET, 2 * need)) return undefined;
  if (isEmptyRange(plan.range)) return { docs: [], visited: 0 };

  const found: NedbDoc[] = [];
  let visited = 0;
  const keyOf =
    plan.index.fields.length === 1 ? (k: unknown) => k : (k: unknown) => (k as Record<string, unknown>)[plan.field];
  // The sort value at which enough documents had matched: later ones sort after all collected,
  // except those sharing it (a compound index spreads one value over several nodes).
  let boundary: { value: unknown } | undefined;
  for (const node of walk(plan.index.root(), plan.range, plan.dir, keyOf)) {
    const value = keyOf(node.key);
    if (boundary && (!opts.sort || nedbCompare(value, boundary.value) !== 0)) break;
    for (const doc of node.data) {
      if (Array.isArray(nedbDotValue(doc, plan.field))) return undefined;
      visited++;
      if (nedbMatch(doc, query)) found.push(doc);
    }
    if (visited > budget) return undefined;
    if (!boundary && found.length >= need) boundary = { value };
  }
  const sorted = opts.sort ? found.sort(comparator(opts.sort)) : found;
  return { docs: sorted.slice(opts.skip ?? 0, need).map(nedbDeepCopy), visited };
}

function choosePlan(indexes: ReadonlyMap<string, NedbIndexView>, filter: Filter, opts: FindOptions): Plan | undefined {
  const usable = [...indexes.entries()]
    .filter(([name, i]) => name !== '_id' && !i.sparse)
    .map(([, i]) => i)
    // A single-field index has the smaller keys; prefer it when both fit.
    .sort((a, b) => a.fields.length - b.fields.length);
  const [first] = Object.keys(opts.sort ?? {});
  if (first !== undefined) {
    const index = usable.find((i) => i.fields[0] === first);
    if (!index) return undefined;
    const dir: Direction = opts.sort?.[first] === -1 ? -1 : 1;
    return { field: first, dir, range: keyRange(filter, first, dir), index };
  }
  for (const index of usable) {
    const field = index.fields[0];
    const up = keyRange(filter, field, 1);
    if (up.lower) return { field, dir: 1, range: up, index };
    const down = keyRange(filter, field, -1);
    if (down.upper) return { field, dir: -1, range: down, index };
  }
  return undefined;
}

/** A value NeDB's index look-up takes as an equality key. */
export const isBasic = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || types.isDate(v);

/**
 * How many candidates NeDB's own plan would match (its `_getRawCandidates`, step by step):
 * Infinity for the whole collection, undefined when that needs a walk to know (a range on an
 * index other than `scanField`: then NeDB's plan is left alone).
 */
function nedbCandidateCount(
  indexes: ReadonlyMap<string, NedbIndexView>,
  query: NedbQuery,
  scanField: string,
): number | undefined {
  const entries = Object.entries(query);
  const basic = entries.filter(([k, v]) => isBasic(v) && indexes.has(k)).pop();
  if (basic) return indexes.get(basic[0])?.matching(basic[1]).length;
  for (const [name, index] of indexes) {
    if (!name.includes(',') || !index.fields.every((f) => Object.hasOwn(query, f) && isBasic(query[f]))) continue;
    return index.matching(Object.fromEntries(index.fields.map((f) => [f, query[f]]))).length;
  }
  const has = (v: unknown, ops: string[]) =>
    typeof v === 'object' && v !== null && ops.some((op) => Object.hasOwn(v, op));
  const inQuery = entries.filter(([k, v]) => has(v, ['$in']) && indexes.has(k)).pop();
  if (inQuery) {
    const values = (inQuery[1] as { $in: unknown }).$in;
    return Array.isArray(values)
      ? values.reduce<number>((n, v) => n + (indexes.get(inQuery[0])?.matching(v).length ?? 0), 0)
      : undefined;
  }
  const range = entries.filter(([k, v]) => has(v, ['$lt', '$lte', '$gt', '$gte']) && indexes.has(k)).pop();
  if (range) return range[0] === scanField ? Infinity : undefined;
  return Infinity;
}

/** NeDB's own sort comparator (Cursor#_execAsync). */
export function comparator(sort: Record<string, 1 | -1>): (a: NedbDoc, b: NedbDoc) => number {
  const criteria = Object.entries(sort);
  return (a, b) => {
    for (const [key, direction] of criteria) {
      const c = direction * nedbCompare(nedbDotValue(a, key), nedbDotValue(b, key));
      if (c !== 0) return c;
    }
    return 0;
  };
}

/**
 * The tree's nodes in key order (`dir` 1) or reverse order (-1), restricted to `range`, without
 * materialising them: subtrees wholly outside the range are never entered.
 */
function* walk(
  root: NedbIndexNode,
  range: KeyRange,
  dir: Direction,
  keyOf: (k: unknown) => unknown,
): Generator<NedbIndexNode> {
  if (!Object.hasOwn(root, 'key')) return; // an empty tree
  const startOk = (n: NedbIndexNode) => (dir === 1 ? aboveLower(range, keyOf(n.key)) : belowUpper(range, keyOf(n.key)));
  const endOk = (n: NedbIndexNode) => (dir === 1 ? belowUpper(range, keyOf(n.key)) : aboveLower(range, keyOf(n.key)));
  const near = (n: NedbIndexNode) => (dir === 1 ? n.left : n.right);
  const far = (n: NedbIndexNode) => (dir === 1 ? n.right : n.left);
  const stack: NedbIndexNode[] = [];
  let cur: NedbIndexNode | null = root;
  while (cur || stack.length > 0) {
    while (cur) {
      if (startOk(cur)) {
        stack.push(cur);
        cur = near(cur);
      } else cur = far(cur);
    }
    const node = stack.pop();
    if (!node || !endOk(node)) return;
    yield node;
    cur = far(node);
  }
}
