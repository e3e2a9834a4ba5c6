/**
 * The port's update operators ($set $unset $inc) applied to a decoded document, with MongoDB's
 * rules: dot paths create their parents, `$inc` needs numbers on both sides, an update is operator
 * documents only. Errors are ValidationErrors (a 400 naming the field), never half-applied: the
 * caller applies to a copy and writes only the result.
 */
import { isDeepStrictEqual, types } from 'node:util';
import { BadRequestError } from '@patchbay/contracts';
import type { Doc, Filter, Update } from './port';
import { getPath, isPlainObject, setPath, unsetPath } from './doc-paths';
import { errorMessage } from '../basics/error-fields';

const OPERATORS = new Set(['$set', '$unset', '$inc']);

/** Refuses a replacement document or an unknown operator where an update was expected. */
export function assertUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys.every((k) => OPERATORS.has(k)))
    throw BadRequestError.field('update', 'an update needs update operators ($set, $unset, $inc)');
}

/** Applies `update` to `doc` in place; true when the document changed. */
export function applyUpdate(doc: Doc, update: Update): boolean {
  assertUpdate(update);
  const before = structuredCloneSafe(doc);
  try {
    for (const [path, value] of Object.entries(update.$set ?? {})) setPath(doc, path, value ?? null);
    for (const path of Object.keys(update.$unset ?? {})) unsetPath(doc, path);
    for (const [path, by] of Object.entries(update.$inc ?? {})) {
      const current = getPath(doc, path);
      if (typeof by !== 'number') throw new Error(`$inc of '${path}' needs a number`);
      if (current !== undefined && typeof current !== 'number')
        throw new Error(`cannot $inc '${path}': it holds a ${typeName(current)}`);
      setPath(doc, path, (current ?? 0) + by);
    }
  } catch (err) {
    throw BadRequestError.field('update', errorMessage(err));
  }
  return !isDeepStrictEqual(before, doc);
}

/**
 * The document an upsert starts from: the filter's equality conditions (top level and inside `$and`),
 * dot paths expanded into nested objects, as MongoDB does.
 */
export function upsertSeed(filter: Filter): Doc {
  const seed: Doc = {};
  const visit = (f: Filter): void => {
    for (const [key, value] of Object.entries(f)) {
      if (key === '$and' && Array.isArray(value)) value.filter(isPlainObject).forEach(visit);
      if (key.startsWith('$') || types.isRegExp(value)) continue;
      if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
        if ('$eq' in value) setPath(seed, key, value.$eq);
      } else setPath(seed, key, value);
    }
  };
  visit(filter);
  return seed;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (types.isDate(v)) return 'date';
  return typeof v;
}

/** A deep copy that keeps Dates (structuredClone would, but makes them of another realm under jest). */
function structuredCloneSafe(v: unknown): unknown {
  if (types.isDate(v)) return new Date(v.getTime());
  if (Array.isArray(v)) return v.map(structuredCloneSafe);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, structuredCloneSafe(x)]));
  return v;
}
