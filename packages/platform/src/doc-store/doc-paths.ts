/** Dot paths over plain documents, with MongoDB's meaning (shared by the embedded store's parts). */
import { types } from 'node:util';
import { BadRequestError } from '@patchbay/contracts';

type Obj = Record<string, unknown>;

/** A plain object: not an array, a Date or a RegExp. */
export function isPlainObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !types.isDate(v) && !types.isRegExp(v);
}

/**
 * True when the path meets an array anywhere along it (or ends on one): such a document makes an index
 * over that path "multikey", and a comparison must then look at every element (MongoDB's array-any rule).
 */
export function crossesArray(doc: unknown, parts: readonly string[]): boolean {
  let at: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(at)) return true;
    if (!isPlainObject(at)) return false;
    at = at[part];
  }
  return Array.isArray(at);
}

/** Sets a dot path, creating plain objects on the way; refuses to walk through a value that is not one. */
export function setPath(doc: Obj, path: string, value: unknown): void {
  const parts = path.split('.');
  // An array on the way is walked by its numeric parts, like an object's fields.
  let at: object = doc;
  for (const [i, part] of parts.slice(0, -1).entries()) {
    const held: unknown = Reflect.get(at, part);
    if (held === undefined || held === null) Reflect.set(at, part, {});
    const next: unknown = Reflect.get(at, part);
    if (!isPlainObject(next) && !Array.isArray(next))
      throw new BadRequestError({
        message: `cannot set '${path}': '${parts.slice(0, i + 1).join('.')}' is not an object`,
      });
    at = next;
  }
  Reflect.set(at, parts[parts.length - 1], value);
}

/** The value at a dot path (no array traversal beyond numeric parts), undefined when missing. */
export function getPath(doc: Obj, path: string): unknown {
  let at: unknown = doc;
  for (const part of path.split('.')) {
    if (!isPlainObject(at) && !Array.isArray(at)) return undefined;
    at = Reflect.get(at, part);
  }
  return at;
}

/** Removes a dot path; true when something was there. */
export function unsetPath(doc: Obj, path: string): boolean {
  const parts = path.split('.');
  const parent = getPath(doc, parts.slice(0, -1).join('.') || '') as unknown;
  const holder = parts.length === 1 ? doc : parent;
  const last = parts[parts.length - 1];
  if (!isPlainObject(holder) || !Object.hasOwn(holder, last)) return false;
  delete holder[last];
  return true;
}

/**
 * Every value a dot path reaches, MongoDB-style (arrays met on the way or at the end contribute their
 * elements), and whether any array was met.
 */
export function reachAll(doc: unknown, parts: readonly string[]): { values: unknown[]; arrays: boolean } {
  const out = { values: [] as unknown[], arrays: false };
  const walk = (at: unknown, i: number): void => {
    if (Array.isArray(at)) {
      out.arrays = true;
      if (i === parts.length) out.values.push(...at);
      else for (const el of at) walk(el, i);
      return;
    }
    if (i === parts.length) {
      out.values.push(at);
      return;
    }
    if (isPlainObject(at) && at[parts[i]] !== undefined) walk(at[parts[i]], i + 1);
    else if (!Array.isArray(at)) out.values.push(undefined);
  };
  walk(doc, 0);
  return out;
}
