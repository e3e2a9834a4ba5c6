import type { Collection } from '@patchbay/platform';
import { andFilters, buildSort, cursorFilter, getPath, type StoreFilter } from '@patchbay/query';
import type { RecordDoc } from '../domain/record-docs';
import type { RecordKind } from '../domain/record-kinds';

/** Records read from the store at once: a page of the walk, never the whole export. */
export const EXPORT_BATCH = 2000;

/** The order of an export: the listing's, `date_stop` then `dr_sid`, ascending. */
export const EXPORT_ORDER = 'date_stop';

/**
 * The records `matching` selects, in the listing's order, a batch at a time: each batch starts
 * strictly after the last record of the one before (the list's own cursor filter, over the
 * `(partner_sid, date_stop, dr_sid)` index), so the walk holds one batch in memory whatever the
 * number of records, and a record stored meanwhile before the walk's position is not read twice.
 *
 * From the second batch on, a lower bound the filter puts on `date_stop` is left out: the cursor
 * implies it (its record matched it, and the walk only goes up). Kept, it is a second range on the
 * index's column that the embedded store's planner may prefer to the cursor's row-value range, and
 * every batch would then scan from the bound again — a walk quadratic in the records (decisions
 * §55).
 */
export async function* recordBatches(
  kind: RecordKind,
  records: Collection<RecordDoc>,
  matching: StoreFilter,
  batch = EXPORT_BATCH,
): AsyncGenerator<RecordDoc[]> {
  const sort = buildSort(kind.spec, EXPORT_ORDER, 'asc');
  const onwards = withoutLowerBound(matching, EXPORT_ORDER);
  let filter = matching;
  for (;;) {
    const docs = await records.find(filter, { sort, limit: batch });
    if (docs.length === 0) return;
    yield docs;
    if (docs.length < batch) return;
    const last = docs[docs.length - 1];
    const after = cursorFilter(kind.spec, EXPORT_ORDER, 'asc', 'after', {
      value: getPath(last, EXPORT_ORDER),
      sid: last.dr_sid,
    });
    filter = andFilters(onwards, after);
  }
}

const LOWER = new Set(['$gt', '$gte']);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** `filter` without the `$gt`/`$gte` conditions on `path` (top level, or within a top-level `$and`). */
export function withoutLowerBound(filter: StoreFilter, path: string): StoreFilter {
  const out: StoreFilter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      const kept = value
        .map((sub: unknown) => (isObject(sub) ? withoutLowerBound(sub, path) : sub))
        .filter((sub: unknown) => !isObject(sub) || Object.keys(sub).length > 0);
      if (kept.length > 0) out.$and = kept;
    } else if (key === path && isObject(value) && Object.keys(value).every((op) => op.startsWith('$'))) {
      const rest = Object.fromEntries(Object.entries(value).filter(([op]) => !LOWER.has(op)));
      if (Object.keys(rest).length > 0) out[key] = rest;
    } else out[key] = value;
  }
  return out;
}
