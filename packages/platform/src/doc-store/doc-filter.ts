/**
 * Filters typed by a collection's document type: `Filter<FileDoc>` accepts the fields of FileDoc
 * (and dot paths into its nested objects and arrays of objects), each with a condition on that
 * field's own type, so a misspelt field or a value of the wrong type does not compile. A document
 * type with an index signature (`Record<string, unknown>`, the default `Doc`) accepts any field
 * with any condition, as filters did before they were typed.
 */

/** Values a path stops at: they are compared whole, never walked into. */
type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date | RegExp | Uint8Array;

/** How deep dot paths go into nested objects (deeper fields are not part of any filter in Patchbay). */
type Depth = [never, 0, 1, 2];

/** The element type of an array field (MongoDB matches a condition against each element), else the type. */
export type Element<V> = V extends readonly (infer E)[] ? E : V;

/** The fields of T and the dot paths into its objects (through arrays of objects, as MongoDB walks them). */
export type DocPath<T, D extends number = 3> = [D] extends [never]
  ? never
  : T extends Leaf
    ? never
    : T extends readonly (infer E)[]
      ? DocPath<E, D>
      : { [K in keyof T & string]: K | `${K}.${DocPath<NonNullable<T[K]>, Depth[D]>}` }[keyof T & string];

/** The type found at dot path P of T (through arrays: the elements' field); unknown where T does not say. */
export type PathValue<T, P extends string> = T extends readonly (infer E)[]
  ? PathValue<E, P>
  : P extends keyof T
    ? T[P]
    : P extends `${infer Head}.${infer Rest}`
      ? Head extends keyof T
        ? PathValue<NonNullable<T[Head]>, Rest>
        : unknown
      : unknown;

/** The query operators of the port (port.ts) on a field holding V. */
export interface Operators<V> {
  $eq?: V | Element<V> | null;
  $ne?: V | Element<V> | null;
  $lt?: Element<V>;
  $lte?: Element<V>;
  $gt?: Element<V>;
  $gte?: Element<V>;
  $in?: ReadonlyArray<Element<V> | null>;
  $nin?: ReadonlyArray<Element<V> | null>;
  $exists?: boolean;
  $regex?: string | RegExp;
  $options?: string;
  $not?: Operators<V> | RegExp;
  $elemMatch?: Filter<Element<V>> | Operators<Element<V>>;
  $bitsAnySet?: number | readonly number[];
}

/** What a filter may say of one field: a value (an element of an array field matches too), null, or operators. */
export type Condition<V> = V | Element<V> | null | Operators<V>;

/** The logical operators, over filters of the same documents. */
export interface Logical<T> {
  $and?: Filter<T>[];
  $or?: Filter<T>[];
}

/** A MongoDB query document over documents of type T (port.ts lists the operators). */
export type Filter<T = Record<string, unknown>> = { [P in DocPath<T>]?: Condition<PathValue<T, P>> } & Logical<T>;
