import { storeField, type ListSpec, type SortDir, type StoreFilter } from './fields';

/** Where a cursor record sits in the total order: its order-field value and its sid. */
export interface CursorPosition {
  value: unknown;
  sid: string;
}

/**
 * The filter for records strictly after (`side` 'after') or strictly before ('before') a cursor
 * record in the total order `field dir, sid dir`:
 * `{$or: [{field: {$gt: v}}, {field: {$eq: v}, sid: {$gt: s}}]}` for after/asc, mirrored for the
 * other three cases.
 *
 * Nulls: MongoDB and the embedded store both sort a null (or missing) value below every other
 * value. MongoDB's `$gt`/`$lt` never match null, so for a field the spec's cursor lists as
 * `nullable` the null records are added explicitly where they belong: below any value (a walk
 * towards lower values includes them), and among themselves ordered by sid when the cursor record
 * itself has no value. Other order fields must be set on every record.
 */
export function cursorFilter(
  spec: ListSpec,
  field: string,
  dir: SortDir,
  side: 'after' | 'before',
  at: CursorPosition,
): StoreFilter {
  const higher = (dir === 'asc') === (side === 'after');
  const op = higher ? '$gt' : '$lt';
  const sidPath = storeField(spec, spec.sidField);
  if (field === spec.sidField) return { [sidPath]: { [op]: at.sid } };
  const path = storeField(spec, field);
  const nullable = spec.cursor?.nullable?.includes(field) === true;
  if (nullable && at.value == null) {
    // The cursor sits among the nulls, at the bottom: above it lie the rest of the nulls and every value.
    const nulls = { [path]: null, [sidPath]: { [op]: at.sid } };
    return higher ? { $or: [{ [path]: { $ne: null } }, nulls] } : nulls;
  }
  const branches: StoreFilter[] = [
    { [path]: { [op]: at.value } },
    { [path]: { $eq: at.value }, [sidPath]: { [op]: at.sid } },
  ];
  if (nullable && !higher) branches.push({ [path]: null });
  return { $or: branches };
}

/** Reads a dot path off a stored document (the cursor's order value, an item's sid). */
export function getPath(doc: object, path: string): unknown {
  let cur: unknown = doc;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = Reflect.get(cur, key);
  }
  return cur;
}
