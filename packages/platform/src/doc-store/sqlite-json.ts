/**
 * How a document is kept in SQLite: JSON text, a Date as `{"$date": <ms since the epoch>}` (the
 * MongoDB Extended JSON shape, readable in the `sqlite3` shell with `json_extract(doc, '$.f."$date"')`),
 * and an `undefined` field stored as null, as the MongoDB driver stores it by default.
 */
import { types } from 'node:util';
import type { Doc } from './port';

/** The serialized document. Throws on a value JSON cannot hold (a BigInt, a cycle). */
export function encodeDoc(doc: Doc): string {
  return JSON.stringify(doc, function (this: Record<string, unknown>, key: string, value: unknown) {
    // `value` has been through Date#toJSON already; the holder still has the Date itself.
    const raw = key === '' ? value : this[key];
    if (types.isDate(raw)) return { $date: raw.getTime() };
    return value === undefined ? null : value;
  });
}

/** The document back, Dates as Dates. */
export function decodeDoc<T extends Doc = Doc>(text: string): T {
  return JSON.parse(text, reviveDate) as T;
}

function reviveDate(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const ms = (value as { $date?: unknown }).$date;
  if (typeof ms === 'number' && Object.keys(value).length === 1) return new Date(ms);
  return value;
}
