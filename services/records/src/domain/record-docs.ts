/**
 * Detail records as stored, and the generic rules that turn a validated input record (ingest body
 * or event) into one. Plain functions, no I/O.
 *
 * Record shape: every API field (null when absent, `[]` for a list), dates as Date objects (filters
 * compare instants), secure IDs lower case, decimal strings exactly as given, plus `numeric`: the
 * same decimals as numbers, so `filter` and `order` compare prices and durations as numbers
 * (list-specs.ts maps those fields there). `numeric` never leaves the service. It is stored without
 * its null fields (storedForm).
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

/**
 * The stored form of a validated input record, field by field by kind: `partnerSid` owns it, and
 * `date_insert` is `now` unless the input gives one. Kind-specific rules and defaults run after
 * (record-kinds.ts).
 */
export function toRecordDoc(
  fields: RecordFields,
  input: Readonly<Record<string, unknown>>,
  partnerSid: string,
  now: Date,
): RecordDoc {
  const doc: Record<string, unknown> = {};
  const numeric: Record<string, number | null> = {};
  for (const name of fields.names) {
    const kind = fields.kinds[name];
    const value = input[name] ?? null;
    if (kind === 'timestamp') doc[name] = typeof value === 'string' ? instant(name, value) : null;
    else if (kind === 'secure_id') doc[name] = typeof value === 'string' ? value.toLowerCase() : null;
    else if (kind === 'list') doc[name] = Array.isArray(value) ? value : [];
    else doc[name] = value;
    if (isDecimal(kind)) numeric[name] = decimal(value);
  }
  doc.partner_sid = partnerSid;
  doc.date_insert ??= now;
  doc.numeric = numeric;
  return doc as RecordDoc;
}

/**
 * A record as written to the store: its null fields (and null `numeric` entries) left out. A call
 * record has some fifty fields and most are null; leaving them out makes a stored record a third of
 * the size, and the ingest about twice as fast on the embedded store (docs/decisions.md §39). Nothing
 * reads differently: serializeRecord gives an absent field as null, and a filter or sort on a field
 * treats missing as null in both stores, as MongoDB does (`{f: null}` matches both).
 */
export function storedForm(doc: RecordDoc): RecordDoc {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) if (doc[key] !== null) out[key] = doc[key];
  const numeric: Record<string, number> = {};
  for (const [key, value] of Object.entries(doc.numeric)) if (value !== null) numeric[key] = value;
  out.numeric = numeric;
  return out as RecordDoc;
}
