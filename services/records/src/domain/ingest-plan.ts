/**
 * The pure half of ingest: which records of a batch are to be stored, which are refused (by
 * position, naming the field) and which unknown fields were dropped. Storing them is the repo's
 * job (repo.ts), which also finds the ones already stored.
 */
import { BadRequestError, type RecordIngestError } from '@patchbay/contracts';
import { isJsonObject } from '@patchbay/platform';
import { RecordRuleError, type RecordDoc } from './record-docs';
import { recordDocFrom, type RecordKind } from './record-kinds';

/** One record of a batch: its position in the body (or 0 for an event) and its JSON value. */
export interface IngestItem {
  position: number;
  raw: unknown;
}

export interface IngestPlan {
  /** Records to store, one per (partner_sid, dr_sid): a repeat within the batch is a duplicate. */
  docs: RecordDoc[];
  /** Repeats within the batch. */
  duplicates: number;
  errors: RecordIngestError[];
  /** Unknown field name → records that carried it (Map: any name is plain data). */
  ignored: Map<string, number>;
}

const KIND_HINTS: Partial<Record<string, string>> = {
  money: 'must be a decimal string such as "0.0025"',
  seconds: 'must be non-negative seconds as a decimal string such as "4.25"',
};

/**
 * ajv reports a bare regular expression, or "must be string" for a JSON number in a decimal field
 * (refused on purpose: it may already have lost digits); say what is expected instead.
 */
function hint(kind: RecordKind, field: string | null, message: string): string {
  if (!field || !/^must (match pattern|be string)/.test(message)) return message;
  const own = Object.hasOwn(kind.hints, field) ? kind.hints[field] : undefined;
  const fieldKind = Object.hasOwn(kind.fields.kinds, field) ? kind.fields.kinds[field] : undefined;
  if (own) return own;
  if (fieldKind && KIND_HINTS[fieldKind]) return KIND_HINTS[fieldKind] as string;
  if (fieldKind === 'secure_id' && message.startsWith('must match pattern')) return 'must be a secure ID (UUID)';
  return message;
}

/**
 * Splits a record into its known fields and the names of the unknown ones. A record without
 * unknown fields is its own `known` (not copied: it is read, never changed, from here on).
 */
export function knownFields(
  kind: RecordKind,
  fields: Record<string, unknown>,
): { known: Record<string, unknown>; unknown: string[] } {
  // Its own keys index it: Object.keys and indexing stay on V8's fast path.
  const names = Object.keys(fields);
  const unknown: string[] = [];
  for (const name of names) if (!kind.fields.known.has(name)) unknown.push(name);
  if (unknown.length === 0) return { known: fields, unknown };
  const known: Record<string, unknown> = {};
  for (const name of names) if (kind.fields.known.has(name)) known[name] = fields[name];
  return { known, unknown };
}

/**
 * Validates and converts every record of a batch. A `null` slot (refused upstream) is skipped.
 * Unknown fields are dropped and counted, whatever becomes of their record; a type error or a
 * broken rule refuses the record. `owner` resolves the partner from the record's `partner_sid`
 * (the caller's, or the event's) and throws RecordRuleError when it may not be used.
 */
export function planIngest(
  kind: RecordKind,
  items: readonly IngestItem[],
  owner: (given: string | null | undefined) => string,
  now: Date,
): IngestPlan {
  const plan: IngestPlan = { docs: [], duplicates: 0, errors: [], ignored: new Map() };
  const seen = new Set<string>();
  for (const { position, raw } of items) {
    if (raw === null) continue;
    if (!isJsonObject(raw)) {
      plan.errors.push({ position, dr_sid: null, field: null, message: 'a record must be a JSON object' });
      continue;
    }
    const { known, unknown } = knownFields(kind, raw);
    for (const name of unknown) plan.ignored.set(name, (plan.ignored.get(name) ?? 0) + 1);
    const drSid = typeof known.dr_sid === 'string' ? known.dr_sid : null;
    try {
      const input = kind.validate(known);
      const given = input.partner_sid;
      const doc = recordDocFrom(kind, input, owner(typeof given === 'string' ? given : null), now);
      const key = `${doc.partner_sid} ${doc.dr_sid}`;
      if (seen.has(key)) plan.duplicates++;
      else {
        seen.add(key);
        plan.docs.push(doc);
      }
    } catch (err) {
      if (err instanceof BadRequestError)
        for (const e of err.errors)
          plan.errors.push({ position, dr_sid: drSid, field: e.field, message: hint(kind, e.field, e.message) });
      else if (err instanceof RecordRuleError)
        plan.errors.push({ position, dr_sid: drSid, field: err.field, message: err.message });
      else throw err;
    }
  }
  return plan;
}
