import { Type, type Static, type TObject } from '@sinclair/typebox';
import { sameForEach } from './schema-helpers';

/**
 * The key fields of a container and of a file: integers and strings a partner sets for its own
 * look-ups (filters, `unique` key sets), null when unset. The one list of them: the schemas, the
 * stored documents, storage's list specs, serializers, defaults and unique key derive from it.
 * In this order (integers, then strings) they make up the unique key set: never reorder them.
 */
export const INTEGER_KEY_FIELDS = ['integer_key_1', 'integer_key_2'] as const;
export const STRING_KEY_FIELDS = ['string_key_1', 'string_key_2', 'string_key_3', 'string_key_4'] as const;
export const KEY_FIELDS = [...INTEGER_KEY_FIELDS, ...STRING_KEY_FIELDS] as const;

/** The integer key fields' schemas (each an integer or null). */
export const IntegerKeySchemas = sameForEach(INTEGER_KEY_FIELDS, Type.Union([Type.Integer(), Type.Null()]));
/** The string key fields' schemas (each at most 256 characters, or null). */
export const StringKeySchemas = sameForEach(
  STRING_KEY_FIELDS,
  Type.Union([Type.String({ maxLength: 256 }), Type.Null()]),
);
/** Every key field's schema, integers first. */
export const KeySchemas = { ...IntegerKeySchemas, ...StringKeySchemas };

/** The key fields' values, every one present. */
export type KeyValues = Static<TObject<typeof KeySchemas>>;

/** Every key field unset: the defaults of a container, of an upload, and what a PUT that leaves them out sets. */
export const NO_KEYS: Readonly<KeyValues> = Object.freeze(sameForEach(KEY_FIELDS, null));

/** How a list filters and orders by each key field (`defineListSpec`'s field kinds). */
export const KEY_FIELD_KINDS = {
  ...sameForEach(INTEGER_KEY_FIELDS, 'integer' as const),
  ...sameForEach(STRING_KEY_FIELDS, 'string' as const),
};

/** The key fields of `o` alone, in table order, an absent one null (a serializer's or a document builder's copy). */
export function keyValuesOf(o: Partial<KeyValues>): KeyValues {
  const out: KeyValues = { ...NO_KEYS };
  for (const k of INTEGER_KEY_FIELDS) out[k] = o[k] ?? null;
  for (const k of STRING_KEY_FIELDS) out[k] = o[k] ?? null;
  return out;
}
