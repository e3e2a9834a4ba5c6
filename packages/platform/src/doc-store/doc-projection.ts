/**
 * MongoDB projection semantics for the embedded store, applied to a freshly decoded document: an
 * inclusion through an array of objects (`{'addresses.ip': 1}`) keeps the array shape
 * (`{addresses: [{ip}, ...]}`), and `_id` is never returned.
 */
import type { Doc, Projection } from './port';
import { isPlainObject } from './doc-paths';

type Obj = Record<string, unknown>;

/** Returns `doc` (which it may modify) without `_id`, projected like MongoDB would. */
export function applyProjection(doc: Doc, projection: Projection | undefined): Doc {
  const { _id: _storeId, ...rest } = doc;
  const spec = Object.entries(projection ?? {}).filter(([path]) => path !== '_id');
  if (spec.length === 0) return rest;
  const inclusive = Boolean(spec[0][1]);
  if (spec.some(([, v]) => Boolean(v) !== inclusive))
    throw new Error('a projection cannot mix inclusion and exclusion');
  if (!inclusive) {
    for (const [path] of spec) exclude(rest, path.split('.'));
    return rest;
  }
  const out: Obj = {};
  for (const [path] of spec) include(rest, out, path.split('.'));
  return out;
}

function include(src: Obj, dst: Obj, parts: string[]): void {
  const [head, ...tail] = parts;
  const value = src[head];
  if (value === undefined) return;
  if (tail.length === 0) {
    dst[head] = value;
  } else if (Array.isArray(value)) {
    // Only object elements survive a sub-path inclusion; several paths share the same element copies.
    const objects = value.filter(isPlainObject);
    const existing = dst[head];
    const target: Obj[] = Array.isArray(existing) ? existing.filter(isPlainObject) : objects.map(() => ({}));
    objects.forEach((el, i) => include(el, target[i], tail));
    dst[head] = target;
  } else if (isPlainObject(value)) {
    const existing = dst[head];
    const target = isPlainObject(existing) ? existing : {};
    include(value, target, tail);
    dst[head] = target;
  }
}

function exclude(obj: Obj, parts: string[]): void {
  const [head, ...tail] = parts;
  if (tail.length === 0) {
    delete obj[head];
    return;
  }
  const value = obj[head];
  if (Array.isArray(value)) {
    for (const el of value) if (isPlainObject(el)) exclude(el, tail);
  } else if (isPlainObject(value)) {
    exclude(value, tail);
  }
}
