import { storeField, type ListSpec, type SortDir, type StoreSort } from './fields';

/**
 * A parsed `order`: one attribute and direction, or `shuffle` (a random order fixed by `seed`, see
 * shuffle.ts; without one, runList draws a seed and carries it in the pagination URLs).
 */
export type Order = { kind: 'field'; field: string; dir: SortDir } | { kind: 'shuffle'; seed?: string };

/** 1 for asc, -1 for desc — the store's sort direction. */
export const sortSign = (dir: SortDir): 1 | -1 => (dir === 'asc' ? 1 : -1);

/**
 * The store sort for an attribute order: the attribute, then the spec's sid field in the same
 * direction. Sids are unique, so the order is total: pages never overlap or skip records that
 * share a value, and a cursor (after/before) has exactly one position.
 */
export function buildSort(spec: ListSpec, field: string, dir: SortDir): StoreSort {
  const sign = sortSign(dir);
  const sort: StoreSort = { [storeField(spec, field)]: sign };
  sort[storeField(spec, spec.sidField)] = sign;
  return sort;
}

/** The same sort with every direction flipped (fetching a `before` page walks backwards). */
export function reverseSort(sort: StoreSort): StoreSort {
  const out: StoreSort = {};
  for (const [k, v] of Object.entries(sort)) out[k] = v === 1 ? -1 : 1;
  return out;
}
