/**
 * What call and message detail records share: the value types of their fields, and how the
 * ingest schema of a kind is derived from its API schema.
 *
 * Each kind's API schema (call-record.ts, message-record.ts) is the one list of its fields: the
 * records service derives its validation, stored documents, serialization and list specs from it
 * (services/records/src/domain/record-fields.ts), so a field is added in exactly one place.
 *
 * Types (docs/interface-notes.md, Detail records and countries; where it is silent, Patchbay's choice, modelled on
 * the compatible API's published samples):
 * - Secure IDs (`dr_sid`, `partner_sid`, `endpoint_sid_*`, `trunk_group_sid_*`) are UUIDs, stored
 *   lower case.
 * - Timestamps are ISO 8601 date-times with a zone (RFC 3339); returned in UTC with milliseconds.
 * - Money and seconds are decimal strings (`"0.0025"`, `"4.25015"`): exact, never JSON numbers,
 *   which may already have lost digits (a JSON number there is refused, not converted). Money may
 *   be negative (credits); seconds may not. Lists filter and sort them as numbers.
 * - Every field is always returned: `null` when unknown, `[]` for an array field.
 */
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

/** `T` or null. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A secure ID: a UUID in its plain 36-character form (no `urn:uuid:` prefix, unlike format 'uuid'). */
export const SecureIdSchema = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});
/** An ISO 8601 date-time with a zone. */
export const TimestampSchema = Type.String({ format: 'date-time' });
/** An exact signed decimal, as a string (`"0.0025"`, `"-1.5"`). */
export const DecimalStringSchema = Type.String({ pattern: '^-?(0|[1-9][0-9]{0,17})(\\.[0-9]{1,12})?$' });
/** Non-negative decimal seconds, as a string (`"4.25015"`). */
export const SecondsStringSchema = Type.String({ pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,9})?$' });
/** A phone number or SIP user as recorded (E.164 digits, with or without `+`, or a name). */
export const RecordNumberSchema = Type.String({ maxLength: 64 });
/** Free text of at most `max` characters (a header, an identifier of another system). */
export const RecordText = (max: number) => Type.String({ maxLength: max });
/** A count or a version: a non-negative 32-bit integer. */
export const RecordCountSchema = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const RECORD_DIRECTIONS = ['inbound', 'outbound', 'any', 'undirected'] as const;
export const RecordDirectionSchema = Type.Union(RECORD_DIRECTIONS.map((d) => Type.Literal(d)));

/**
 * One record as ingest accepts it (bulk ingest or event), typed from the API record `T`: the
 * `Required` fields must be given; every other field may be omitted or null (its default, or
 * null, is stored).
 */
export type RecordInput<T, Required extends keyof T> = { [K in Required]: T[K] } & {
  [K in Exclude<keyof T, Required>]?: T[K] | null;
};

const acceptsNull = (s: TSchema): boolean =>
  s.type === 'null' || (Array.isArray(s.anyOf) && s.anyOf.some((b: TSchema) => b.type === 'null'));

/**
 * The ingest schema of a kind, derived from its API schema: `required` fields keep their type;
 * every other field becomes optional and also accepts null (a default applies: the caller's
 * partner, the time of storage, `[]`). Unknown fields are refused by the schema; the records
 * service drops and counts them before validating, so ingest stays lenient about them.
 */
export function recordInputSchema(api: TObject, required: readonly string[], $id: string): TObject<TProperties> {
  const props: TProperties = {};
  for (const [name, schema] of Object.entries(api.properties)) {
    props[name] = required.includes(name) ? schema : Type.Optional(acceptsNull(schema) ? schema : Nullable(schema));
  }
  return Type.Object(props, { additionalProperties: false, $id });
}
