/**
 * The fields of a kind of detail record, read once from its API schema in contracts
 * (CallRecordSchema, MessageRecordSchema). Everything else the service knows about a field (how
 * it is validated, stored, returned, filtered and sorted) follows from its kind here, so the
 * schema stays the only list of fields.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { DecimalStringSchema, SecondsStringSchema, SecureIdSchema } from '@patchbay/contracts';

/**
 * - `secure_id`: a UUID, stored lower case; `timestamp`: an ISO 8601 date-time, stored as a Date;
 * - `money`/`seconds`: decimal strings, stored as given plus a numeric copy (filters and sorts);
 * - `integer`, `boolean`, `text` (strings and enums): stored as given;
 * - `list`: an array, `[]` when absent;
 * - `text_or_integer`: a string or an integer (a type the interface leaves open), stored and returned
 *   as given; `filter` compares it as text, so `eq 2` matches the string "2" only.
 */
export type FieldKind =
  'secure_id' | 'timestamp' | 'money' | 'seconds' | 'integer' | 'boolean' | 'text' | 'list' | 'text_or_integer';

export interface RecordFields {
  /** Every field, in alphabetical order (the order of the API object's keys). */
  readonly names: readonly string[];
  readonly kinds: Readonly<Record<string, FieldKind>>;
  /** Fields that may be null (or absent) on a stored record. */
  readonly nullable: ReadonlySet<string>;
  /** `names` as a set, to tell known fields from unknown ones. */
  readonly known: ReadonlySet<string>;
}

/** The leaves of a union, without `null`; and whether `null` was one of them. */
function leaves(s: TSchema): { types: TSchema[]; nullable: boolean } {
  if (!Array.isArray(s.anyOf))
    return s.type === 'null' ? { types: [], nullable: true } : { types: [s], nullable: false };
  const parts = s.anyOf.map(leaves);
  return { types: parts.flatMap((p) => p.types), nullable: parts.some((p) => p.nullable) };
}

function kindOf(name: string, types: TSchema[]): FieldKind {
  const [first] = types;
  if (types.length === 0) throw new Error(`record field '${name}' has no type`);
  if (types.every((t) => t.type === 'string' && t.const !== undefined)) return 'text'; // an enum
  if (types.length === 2 && types.some((t) => t.type === 'string') && types.some((t) => t.type === 'integer'))
    return 'text_or_integer';
  if (types.length > 1) throw new Error(`record field '${name}' mixes types`);
  if (first.type === 'string') {
    if (first.format === 'date-time') return 'timestamp';
    if (first.pattern === SecureIdSchema.pattern) return 'secure_id';
    if (first.pattern === DecimalStringSchema.pattern) return 'money';
    if (first.pattern === SecondsStringSchema.pattern) return 'seconds';
    return 'text';
  }
  if (first.type === 'integer') return 'integer';
  if (first.type === 'boolean') return 'boolean';
  if (first.type === 'array') return 'list';
  throw new Error(`record field '${name}' has a type records cannot store (${String(first.type)})`);
}

/**
 * Reads the fields of an API record schema. Throws (a programming error, at start-up) on a field
 * whose type it cannot store.
 */
export function recordFields(schema: TObject): RecordFields {
  const names = Object.keys(schema.properties).sort();
  const kinds: Record<string, FieldKind> = {};
  const nullable = new Set<string>();
  for (const name of names) {
    const { types, nullable: maybeNull } = leaves(schema.properties[name]);
    kinds[name] = kindOf(name, types);
    if (maybeNull) nullable.add(name);
  }
  return Object.freeze({ names, kinds: Object.freeze(kinds), nullable, known: new Set(names) });
}

/** True for the kinds stored with a numeric copy. */
export const isDecimal = (kind: FieldKind): boolean => kind === 'money' || kind === 'seconds';
