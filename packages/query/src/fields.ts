/**
 * What a list is about: the `ListSpec` a service declares once per resource, and the small slice
 * of the document-store vocabulary (filter, sort, projection documents) this package produces.
 *
 * The store types are declared here structurally instead of imported from `@patchbay/platform`,
 * because platform may depend on query one day and a cycle between them must never form.
 */

/** A MongoDB query document (the subset listed in platform's doc-store port). */
export type StoreFilter = Record<string, unknown>;
/** A MongoDB sort document; keys apply in insertion order. */
export type StoreSort = Record<string, 1 | -1>;
/** A MongoDB projection document. */
export type StoreProjection = Record<string, 0 | 1>;

/** How a field's filter values are read: `date` values become `Date` instants, numbers are coerced. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'uuid';
export type SortDir = 'asc' | 'desc';

export interface ListSpec {
  /** Public dot paths that may be filtered, sorted on and selected, with their types. */
  readonly fields: Readonly<Record<string, FieldType>>;
  /**
   * Extra dot paths `include_fields`/`exclude_fields` accept but `filter` does not (free-form
   * objects, arrays of objects). Ancestors of every field and of these paths are accepted too.
   */
  readonly selectable?: readonly string[];
  /** Fields `order` accepts; defaults to every key of `fields`. */
  readonly sortable?: readonly string[];
  readonly defaultOrder: { readonly field: string; readonly dir: SortDir };
  /** Unique secure-ID field: the sort tie-breaker (so the order is total) and the cursor key. */
  readonly sidField: string;
  /**
   * Present when the list supports `after`/`before`; with them `order` is limited to
   * `orderFields`. An order field that some records leave null (or lack) must be listed in
   * `nullable`: cursors then place those records first in ascending order (last in descending),
   * where both stores sort them; unlisted, a cursor would skip them.
   */
  readonly cursor?: { readonly orderFields: readonly string[]; readonly nullable?: readonly string[] };
  /** False for lists whose `total` is always null (detail records). Default true. */
  readonly countable?: boolean;
  /** Maps a public path to the stored one when they differ. Default: identity. */
  readonly storePath?: (apiPath: string) => string;
}

/** `Object.hasOwn` keeps names such as `constructor` or `__proto__` from passing as fields. */
export function fieldType(spec: ListSpec, path: string): FieldType | undefined {
  return Object.hasOwn(spec.fields, path) ? spec.fields[path] : undefined;
}

export function isSortable(spec: ListSpec, path: string): boolean {
  return spec.sortable ? spec.sortable.includes(path) : fieldType(spec, path) !== undefined;
}

/** The stored name of a public path. */
export function storeField(spec: ListSpec, path: string): string {
  return spec.storePath ? spec.storePath(path) : path;
}

/** True when `path` names a field, a `selectable` path, or an ancestor of one (`addresses` for `addresses.ip`). */
export function isSelectable(spec: ListSpec, path: string): boolean {
  const known = [...Object.keys(spec.fields), ...(spec.selectable ?? []), spec.sidField];
  return known.some((k) => k === path || k.startsWith(`${path}.`));
}

/**
 * Checks a spec once, at start-up: a broken spec is a programming error (plain Error), never a
 * client's 400. Returns the same spec, frozen, so services can declare `const spec = defineListSpec({...})`.
 */
export function defineListSpec(spec: ListSpec): ListSpec {
  const problems: string[] = [];
  for (const f of spec.sortable ?? []) if (!fieldType(spec, f)) problems.push(`sortable '${f}' is not a field`);
  if (!isSortable(spec, spec.defaultOrder.field))
    problems.push(`defaultOrder '${spec.defaultOrder.field}' is not sortable`);
  if (!fieldType(spec, spec.sidField)) problems.push(`sidField '${spec.sidField}' is not a field`);
  for (const f of spec.cursor?.orderFields ?? [])
    if (!isSortable(spec, f)) problems.push(`cursor order field '${f}' is not sortable`);
  if (spec.cursor && spec.cursor.orderFields.length === 0) problems.push('cursor.orderFields is empty');
  for (const f of spec.cursor?.nullable ?? [])
    if (!spec.cursor?.orderFields.includes(f))
      problems.push(`cursor nullable field '${f}' is not a cursor order field`);
  if (problems.length > 0) throw new Error(`invalid ListSpec: ${problems.join('; ')}`);
  return Object.freeze(spec);
}
