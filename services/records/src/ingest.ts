import { BadRequestError, DuplicateKeyError, type RecordIngestBatchResult, type RecordIngestError } from '@patchbay/contracts';
import { RecordRuleError } from './domain/record-docs';
import type { DetailKind } from './detail-kinds';

/** One record of a batch: its position in the body (or 0 for an event) and its JSON value. */
export interface IngestItem { position: number; raw: unknown }

/**
 * Plain-language messages for the string-coded fields: ajv reports the bare regular expression, or
 * "must be string" for a JSON number (refused on purpose: it may already have lost digits).
 */
const PATTERN_HINTS: Record<string, string> = {
  price: 'must be a decimal string such as "0.0025"',
  rate: 'must be a decimal string such as "0.0025"',
  duration: 'must be non-negative seconds as a decimal string such as "4.25"',
  duration_billing: 'must be non-negative seconds as a decimal string such as "60"',
  sipcause: 'must be a SIP status code as a string such as "200"',
};
function hint(field: string | null, message: string): string {
  if (field && Object.hasOwn(PATTERN_HINTS, field) && /^must (match pattern|be string)/.test(message)) return PATTERN_HINTS[field];
  return message.startsWith('must match pattern') ? 'must be a secure ID (UUID)' : message;
}

/**
 * Validates and stores records, idempotently by `dr_sid`: a record already stored for the same
 * partner (or repeated in the batch) counts as a duplicate, never an error. A `dr_sid` stored for
 * another partner is refused. Bad records are reported by position and skipped; the rest are stored.
 * `owner` resolves the partner from the record's `partner_sid` (the caller's, or the event's).
 */
export async function ingestRecords(kind: DetailKind, items: IngestItem[], owner: (given: string | undefined) => string, now = new Date()): Promise<RecordIngestBatchResult> {
  const errors: RecordIngestError[] = [];
  const fresh = new Map<string, { position: number; doc: Record<string, unknown> }>();
  let duplicates = 0;
  for (const { position, raw } of items) {
    if (raw === null) continue; // refused upstream (unreadable JSON, not an object, too large)
    const drSid = typeof (raw as { dr_sid?: unknown }).dr_sid === 'string' ? (raw as { dr_sid: string }).dr_sid : null;
    try {
      const input = kind.validate(raw) as { partner_sid?: string };
      const doc = kind.toDoc(input, owner(input.partner_sid), now);
      if (fresh.has(doc.dr_sid as string)) duplicates++;
      else fresh.set(doc.dr_sid as string, { position, doc });
    } catch (err) {
      if (err instanceof BadRequestError) for (const e of err.errors) errors.push({ position, dr_sid: drSid, field: e.field, message: hint(e.field, e.message) });
      else if (err instanceof RecordRuleError) errors.push({ position, dr_sid: drSid, field: err.field, message: err.message });
      else throw err;
    }
  }
  if (fresh.size === 0) return { stored: 0, duplicates, errors };

  const existing = await kind.collection.find({ dr_sid: { $in: [...fresh.keys()] } }, { projection: { dr_sid: 1, partner_sid: 1 } });
  for (const e of existing) {
    const item = fresh.get(e.dr_sid as string);
    if (!item) continue;
    fresh.delete(e.dr_sid as string);
    if (e.partner_sid === item.doc.partner_sid) duplicates++;
    else errors.push({ position: item.position, dr_sid: item.doc.dr_sid as string, field: 'dr_sid', message: 'dr_sid is already used by another record' });
  }
  const docs = [...fresh.values()].map((i) => i.doc);
  let stored = 0;
  try {
    await kind.collection.insertMany(docs);
    stored = docs.length;
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    // Stored meanwhile by a concurrent ingest or event (insertMany stored none or some): one by one.
    for (const doc of docs) {
      try { await kind.collection.insertOne(doc); stored++; } catch (e) { if (e instanceof DuplicateKeyError) duplicates++; else throw e; }
    }
  }
  errors.sort((a, b) => a.position - b.position);
  return { stored, duplicates, errors };
}
