import { Type, type TProperties } from '@sinclair/typebox';

/** One of `values`, typed as their union (`readonly ['a', 'b']` → `'a' | 'b'`). */
export const Literals = <V extends string | number>(values: readonly V[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));

/** Every property of `props` made optional, each keeping its own type (TypeBox's Partial does the typing). */
export function optionalAll<P extends TProperties>(props: P) {
  return Type.Partial(Type.Object(props)).properties;
}

/** The same value (a schema, a default, a field kind) under each of `keys`: `{ [key]: value }`, typed by the keys. */
export function sameForEach<K extends string, V>(keys: readonly K[], value: V): { [P in K]: V } {
  // why: Object.fromEntries types its keys as string; they are exactly `keys`.
  return Object.fromEntries(keys.map((k) => [k, value])) as { [P in K]: V };
}
