import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

/** One of `values`, typed as their union (`readonly ['a', 'b']` → `'a' | 'b'`). */
export const Literals = <V extends string | number>(values: readonly V[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));

/** Every property of `props` made optional, each keeping its own type (TypeBox's Partial does the typing). */
export function optionalAll<P extends TProperties>(props: P) {
  return Type.Partial(Type.Object(props)).properties;
}

/** The same schema under each of `keys`: `{ [key]: schema }`, typed by the keys. */
export function sameForEach<K extends string, S extends TSchema>(keys: readonly K[], schema: S): { [P in K]: S } {
  // why: Object.fromEntries types its keys as string; they are exactly `keys`.
  return Object.fromEntries(keys.map((k) => [k, schema])) as { [P in K]: S };
}
