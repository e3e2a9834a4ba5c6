/**
 * Index keys: one SQL value per document and dot path whose SQLite order is MongoDB's sort order.
 *
 *   null or missing  -9e999 (-Infinity: JSON cannot hold it, so no document value collides)
 *   number           the number
 *   string           the text (BINARY collation: UTF-8 byte order, as MongoDB compares strings)
 *   object           BLOB '1'           (objects and arrays are not compared by key: see below)
 *   array            BLOB '2'           also when the path runs through an array ("multikey")
 *   boolean          BLOB '30' / '31'
 *   Date             BLOB '4' + 17 digits of (ms + 1e16)
 *
 * SQLite orders NULL < numbers < text < blobs, blobs by bytes, so this is MongoDB's order
 * null < numbers < strings < objects < arrays < booleans < Dates. The same expression is the
 * generated column of an index and the ORDER BY of a sort on a field without one.
 */
import { types } from 'node:util';

/** -Infinity as SQLite reads it: the key of null and of a missing field. */
export const NULL_KEY_SQL = '-9e999';
export const NULL_KEY = -Infinity;
/** Added to a Date's ms so every Date (±8.64e15 ms) has a non-negative key of 17 digits. */
const DATE_OFFSET = 10_000_000_000_000_000n;
export const ARRAY_KEY_SQL = "x'32'";

/** A JSON path literal for SQLite (`$."a"."b"`); every part quoted, so any field name is safe. */
export function jsonPath(parts: readonly string[]): string {
  return '$' + parts.map((p) => `."${p.replace(/"/g, '""')}"`).join('');
}

/** `'…'` with quotes doubled. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** The key expression of a dot path over the `doc` column. */
export function keyExpression(path: string): string {
  const parts = path.split('.');
  const p = sqlString(jsonPath(parts));
  const datePath = sqlString(jsonPath([...parts, '$date']));
  const typed =
    `CASE json_type(doc, ${p})` +
    ` WHEN 'integer' THEN json_extract(doc, ${p}) WHEN 'real' THEN json_extract(doc, ${p})` +
    ` WHEN 'text' THEN json_extract(doc, ${p})` +
    ` WHEN 'true' THEN x'3331' WHEN 'false' THEN x'3330' WHEN 'array' THEN ${ARRAY_KEY_SQL}` +
    ` WHEN 'object' THEN CASE WHEN json_type(doc, ${datePath}) = 'integer'` +
    ` THEN CAST(printf('4%017d', json_extract(doc, ${datePath}) + ${String(DATE_OFFSET)}) AS BLOB) ELSE x'31' END` +
    ` ELSE ${NULL_KEY_SQL} END`;
  if (parts.length === 1) return typed;
  // A path through an array (`addresses.ip`) has no single value: the array marker, like an array at the end.
  const through = parts
    .slice(0, -1)
    .map((_, i) => `json_type(doc, ${sqlString(jsonPath(parts.slice(0, i + 1)))}) = 'array'`)
    .join(' OR ');
  return `CASE WHEN ${through} THEN ${ARRAY_KEY_SQL} ELSE ${typed} END`;
}

export type KeyKind = 'null' | 'number' | 'text' | 'boolean' | 'date';

/** The key of a filter operand, or undefined for a value keys cannot compare (objects, arrays, RegExps, NaN). */
export function keyOf(value: unknown): { key: number | string | Buffer; kind: KeyKind } | undefined {
  if (value === null || value === undefined) return { key: NULL_KEY, kind: 'null' };
  if (typeof value === 'number') return Number.isFinite(value) ? { key: value, kind: 'number' } : undefined;
  if (typeof value === 'string') return { key: value, kind: 'text' };
  if (typeof value === 'boolean') return { key: Buffer.from(value ? '31' : '30', 'latin1'), kind: 'boolean' };
  if (types.isDate(value)) {
    const ms = value.getTime();
    if (!Number.isFinite(ms)) return undefined;
    return { key: Buffer.from('4' + String(BigInt(ms) + DATE_OFFSET).padStart(17, '0'), 'latin1'), kind: 'date' };
  }
  return undefined;
}

/**
 * The conditions that keep a key within one kind (`[low, high]`, each to follow the key expression),
 * so a range comparison never crosses types, as MongoDB's never does.
 */
export function boundsOf(kind: Exclude<KeyKind, 'null'>): [string, string] {
  switch (kind) {
    case 'number':
      return [`> ${NULL_KEY_SQL}`, "< ''"];
    case 'text':
      return [">= ''", "< x''"];
    case 'boolean':
      return [">= x'33'", "< x'34'"];
    case 'date':
      return ["> x'34'", "< x'35'"];
  }
}
