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
 */
export async function* recordBatches(
  kind: RecordKind,
  records: Collection<RecordDoc>,
  matching: StoreFilter,
  batch = EXPORT_BATCH,
): AsyncGenerator<RecordDoc[]> {
  const sort = buildSort(kind.spec, EXPORT_ORDER, 'asc');
  let after: StoreFilter = {};
  for (;;) {
    const docs = await records.find(andFilters(matching, after), { sort, limit: batch });
    if (docs.length === 0) return;
    yield docs;
    if (docs.length < batch) return;
    const last = docs[docs.length - 1];
    after = cursorFilter(kind.spec, EXPORT_ORDER, 'asc', 'after', {
      value: getPath(last, EXPORT_ORDER),
      sid: last.dr_sid,
    });
  }
}
