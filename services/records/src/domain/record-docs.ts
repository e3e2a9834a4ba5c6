/**
 * Detail records as stored, and the generic rules that turn a validated input record (ingest body
 * or event) into one. Plain functions, no I/O.
 *
 * Stored shape: the API fields that have a value (`[]` for a list without one), dates as Date
 * objects (filters compare instants), secure IDs lower case, decimal strings exactly as given, plus
 * `numeric`: the same decimals as numbers, so `filter` and `order` compare prices and durations as
 * numbers (list-specs.ts maps those fields there). `numeric` never leaves the service.
 *
 * A field without a value is left out rather than stored as null: a call record has some fifty
 * fields and most are null, so a stored record is a third of the size and the embedded store's
 * ingest about twice as fast (decisions §39). Nothing reads differently: serializeRecord
 * gives an absent field as null, and a filter or a sort treats a missing field as null in both
 * stores, as MongoDB does (`{f: null}` matches both). Records stored by earlier releases, nulls
 * included, read the same.
 */
import type { RecordFields } from './record-fields';
import { isDecimal } from './record-fields';

/** A stored detail record of either kind. */
export interface RecordDoc extends Record<string, unknown> {
  dr_sid: string;
  partner_sid: string;
  date_insert: Date;
  numeric: Record<string, number | null>;
}

/** A record that fits its schema but breaks a rule; reported at its position, naming the field. */
export class RecordRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whose record it is: the caller's. A record naming another partner is refused rather than
 * silently moved to the caller (an import of someone else's dump is a mistake worth reporting).
 */
export function ownerOf(given: string | null | undefined, caller: string): string {
  if (given != null && given.toLowerCase() !== caller.toLowerCase()) {
    throw new RecordRuleError(
      'partner_sid',
      'a partner can ingest only its own records (omit partner_sid or give your own)',
    );
  }
  return caller.toLowerCase();
}

/** `duration` when not given: stop − start in seconds, as a decimal string with up to 3 decimals. */
export function secondsBetween(start: Date, stop: Date): string {
  const ms = stop.getTime() - start.getTime();
  const whole = Math.floor(ms / 1000);
  const frac = String(ms % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** A date-time the schema accepted but Date cannot hold (a leap second) breaks a rule. */
function instant(field: string, text: string): Date {
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw new RecordRuleError(field, `${field} is not a valid ISO 8601 date-time`);
  return d;
}

/** Reads a decimal string as a number (for the `numeric` copy). */
export const decimal = (s: unknown): number | null => (typeof s === 'string' ? Number(s) : null);

/** One field of a kind as toRecordDoc converts it (computed once per kind). */
interface FieldPlan {
  kind: RecordFields['kinds'][string];
  decimal: boolean;
}

/** A kind's fields as toRecordDoc converts them, and its list fields (`[]` when absent). */
interface KindPlan {
  fields: ReadonlyMap<string, FieldPlan>;
  lists: readonly string[];
}

const plans = new WeakMap<RecordFields, KindPlan>();

function planOf(fields: RecordFields): KindPlan {
  let plan = plans.get(fields);
  if (!plan) {
    plan = {
      fields: new Map(
        fields.names.map((name) => [name, { kind: fields.kinds[name], decimal: isDecimal(fields.kinds[name]) }]),
      ),
      lists: fields.names.filter((name) => fields.kinds[name] === 'list'),
    };
    plans.set(fields, plan);
  }
  return plan;
}

/**
 * The stored form of a validated input record, field by field by kind: `partnerSid` owns it, and
 * `date_insert` is `now` unless the input gives one; a field without a value is left out (a list is
 * `[]`). Kind-specific rules and defaults run after (record-kinds.ts).
 */
export function toRecordDoc(
  fields: RecordFields,
  input: Readonly<Record<string, unknown>>,
  partnerSid: string,
  now: Date,
): RecordDoc {
  const plan = planOf(fields);
  const doc: Record<string, unknown> = {};
  const numeric: Record<string, number> = {};
  // Only the fields the input has (a record names a few of its kind's fifty): absent ones stay absent.
  for (const name of Object.keys(input)) {
    const field = plan.fields.get(name);
    const value = input[name];
    if (!field || value === null || value === undefined) continue;
    if (field.kind === 'timestamp') {
      if (typeof value === 'string') doc[name] = instant(name, value);
    } else if (field.kind === 'secure_id') {
      if (typeof value === 'string') doc[name] = value.toLowerCase();
    } else if (field.kind === 'list') {
      if (Array.isArray(value)) doc[name] = value;
    } else doc[name] = value;
    if (field.decimal) {
      const n = decimal(value);
      if (n !== null) numeric[name] = n;
    }
  }
  for (const name of plan.lists) if (doc[name] === undefined) doc[name] = [];
  doc.partner_sid = partnerSid;
  doc.date_insert ??= now;
  doc.numeric = numeric;
  // Built field by field from a validated input (its dr_sid a string), with partner_sid, date_insert and numeric set.
  // Returned as a spread copy: V8 turns an object given twenty-odd keys one by one into a slow dictionary,
  // and the copy has fast properties again for everything that reads it (the rules, the store's encoder).
  return { ...doc } as RecordDoc;
}
