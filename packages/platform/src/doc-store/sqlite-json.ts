/**
 * How a document is kept in SQLite: JSON text, a Date as `{"$date": <ms since the epoch>}` (the
 * MongoDB Extended JSON shape, readable in the `sqlite3` shell with `json_extract(doc, '$.f."$date"')`),
 * and an `undefined` field stored as null, as the MongoDB driver stores it by default.
 */
import { types } from 'node:util';
import type { Doc } from './port';

/** The serialized document. Throws on a value JSON cannot hold (a BigInt, a cycle). */
export function encodeDoc(doc: Doc): string {
  // A copy with Dates and undefined already translated, then the plain (fast) JSON.stringify: a replacer
  // function would put every key of every document on V8's slow path.
  return JSON.stringify(toJson(doc));
}

function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (types.isDate(value)) return { $date: value.getTime() };
  if (Array.isArray(value)) return value.map(toJson);
  if ('toJSON' in value && typeof value.toJSON === 'function') return toJson(value.toJSON());
  const out: Record<string, unknown> = {};
  // why: its own keys index the object; Object.keys and indexing stay on V8's fast path (Object.entries would not).
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) out[key] = toJson(fields[key]);
  return out;
}

/** The document back, Dates as Dates. */
export function decodeDoc(text: string): Doc {
  // why: the text is a document this module encoded (JSON.parse is typed any).
  return JSON.parse(text, reviveDate) as Doc;
}

function reviveDate(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('$date' in value)) return value;
  if (typeof value.$date === 'number' && Object.keys(value).length === 1) return new Date(value.$date);
  return value;
}
