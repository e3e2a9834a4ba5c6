/**
 * The value a `<select>` now holds, as one of `values` (the options it renders); `fallback` when the
 * element holds something else, which only a changed page could make it do.
 */
export function choice<V extends string, F = V>(values: readonly V[], value: string, fallback: F): V | F {
  return values.find((v) => v === value) ?? fallback;
}
