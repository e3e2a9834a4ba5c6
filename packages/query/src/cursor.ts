import { storeField, type ListSpec, type SortDir, type StoreFilter } from './fields';

/** Where a cursor record sits in the total order: its order-field value and its sid. */
export interface CursorPosition { value: unknown; sid: string }

/**
 * The filter for records strictly after (`side` 'after') or strictly before ('before') a cursor
 * record in the total order `field dir, sid dir`:
 * `{$or: [{field: {$gt: v}}, {field: {$eq: v}, sid: {$gt: s}}]}` for after/asc, mirrored for the
 * other three cases. The order field must be set on every record (see `ListSpec.cursor`):
 * MongoDB's `$gt`/`$lt` never match null or a missing field.
 */
export function cursorFilter(spec: ListSpec, field: string, dir: SortDir, side: 'after' | 'before', at: CursorPosition): StoreFilter {
  const forward = (dir === 'asc') === (side === 'after');
  const op = forward ? '$gt' : '$lt';
  const sidPath = storeField(spec, spec.sidField);
  if (field === spec.sidField) return { [sidPath]: { [op]: at.sid } };
  const path = storeField(spec, field);
  return {
    $or: [
      { [path]: { [op]: at.value } },
      { [path]: { $eq: at.value }, [sidPath]: { [op]: at.sid } },
    ],
  };
}

/** Reads a dot path off a stored document (the cursor's order value, an item's sid). */
export function getPath(doc: Record<string, unknown>, path: string): unknown {
  let cur: unknown = doc;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
