/**
 * Candidates for a find that gives every field of a compound index by equality, one of them as an
 * `$in` list: `{partner_sid: p, dr_sid: {$in: [...]}}` over an index on (partner_sid, dr_sid).
 *
 * NeDB's own plan serves `$in` only from a single-field index, so such a look-up would match the
 * whole collection; MongoDB reads one index entry per value. This module does the same over NeDB's
 * index tree, and stands aside (undefined) whenever NeDB's plan would use an index anyway or the
 * query does not have that shape. The caller still runs the full matcher on the candidates.
 */
import type { FindOptions } from './port';
import { nedbDeepCopy, nedbMatch, type NedbDoc, type NedbFile, type NedbQuery } from './nedb-internals';
import { comparator, isBasic } from './nedb-ordered-scan';

const inList = (v: unknown): unknown[] | undefined => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const keys = Object.keys(v);
  const list = (v as { $in?: unknown }).$in;
  return keys.length === 1 && Array.isArray(list) && list.every(isBasic) ? list : undefined;
};

/** Cheap pre-check: some top-level condition is an `$in` list (else compoundInCandidates never applies). */
export function hasInList(query: NedbQuery): boolean {
  return Object.values(query).some((v) => inList(v) !== undefined);
}

/** The documents the compound index holds for the query's keys, each once; undefined when it does not apply. */
export function compoundInCandidates(file: NedbFile, query: NedbQuery): NedbDoc[] | undefined {
  const indexes = file.indexes();
  // A basic equality on an indexed field is NeDB's first choice, and already narrow.
  if (Object.entries(query).some(([k, v]) => isBasic(v) && indexes.has(k))) return undefined;
  for (const [name, index] of indexes) {
    if (!name.includes(',') || index.sparse) continue;
    const listed = index.fields.filter((f) => inList(query[f]) !== undefined);
    const equal = index.fields.filter((f) => Object.hasOwn(query, f) && isBasic(query[f]));
    if (listed.length !== 1 || listed.length + equal.length !== index.fields.length) continue;
    const [field] = listed;
    const seen = new Set<NedbDoc>();
    for (const value of inList(query[field]) ?? []) {
      const key = Object.fromEntries(index.fields.map((f) => [f, f === field ? value : query[f]]));
      for (const doc of index.matching(key)) seen.add(doc);
    }
    return [...seen];
  }
  return undefined;
}

/** Matches, sorts, skips and limits candidates as NeDB's cursor would; deep copies. */
export function findAmong(candidates: readonly NedbDoc[], query: NedbQuery, opts: FindOptions): NedbDoc[] {
  const found = candidates.filter((d) => nedbMatch(d, query));
  if (opts.sort && Object.keys(opts.sort).length > 0) found.sort(comparator(opts.sort));
  const skip = opts.skip ?? 0;
  return found.slice(skip, opts.limit ? skip + opts.limit : undefined).map(nedbDeepCopy);
}
