/**
 * Field filtering on serialized API objects (`include_fields` / `exclude_fields`), done after
 * serialization so it sees exactly the public shape — derived fields included — and keeps its
 * key order (alphabetical, as serializers emit it).
 *
 * Dot paths reach nested objects; through an array they apply to every element
 * (`addresses.ip` keeps only `ip` in each address). A path naming a whole subtree wins over
 * deeper paths under it. Paths that are absent from an object are ignored; a path that goes
 * through a null or a scalar keeps that value as it is (include) or leaves it alone (exclude).
 */

type Json = Record<string, unknown>;
/** `true`: the whole value at this key; a subtree: only some of its keys. */
type PathTree = Map<string, PathTree | true>;

function buildTree(paths: readonly string[]): PathTree {
  const root: PathTree = new Map();
  for (const path of paths) {
    const keys = path.split('.');
    let node = root;
    for (const [i, key] of keys.entries()) {
      const existing = node.get(key);
      if (existing === true) break;
      if (i === keys.length - 1) {
        node.set(key, true);
        break;
      }
      const child = existing ?? new Map();
      node.set(key, child);
      node = child;
    }
  }
  return root;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function include(value: unknown, tree: PathTree): unknown {
  if (Array.isArray(value)) return value.map((v) => include(v, tree));
  return isObject(value) ? includeFields(value, tree) : value;
}

function includeFields(value: Json, tree: PathTree): Json {
  const kept: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) {
    const sub = tree.get(key);
    if (sub) kept.push([key, sub === true ? v : include(v, sub)]);
  }
  return Object.fromEntries(kept); // fromEntries defines own keys, so a user key `__proto__` stays data
}

function exclude(value: unknown, tree: PathTree): unknown {
  if (Array.isArray(value)) return value.map((v) => exclude(v, tree));
  return isObject(value) ? excludeFields(value, tree) : value;
}

function excludeFields(value: Json, tree: PathTree): Json {
  const kept: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) {
    const sub = tree.get(key);
    if (sub !== true) kept.push([key, sub ? exclude(v, sub) : v]);
  }
  return Object.fromEntries(kept);
}

/**
 * Keeps only `includePaths` (when given), then drops `excludePaths`. Returns a new object; with
 * neither list the item itself is returned.
 */
export function applyFieldFilter<T extends object>(
  item: T,
  includePaths?: readonly string[],
  excludePaths?: readonly string[],
): Json {
  if (!isObject(item)) throw new TypeError('a list item is an object');
  let out: Json = item;
  if (includePaths && includePaths.length > 0) out = includeFields(out, buildTree(includePaths));
  if (excludePaths && excludePaths.length > 0) out = excludeFields(out, buildTree(excludePaths));
  return out;
}
