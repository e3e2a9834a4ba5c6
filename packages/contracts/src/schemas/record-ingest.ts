/**
 * Bulk ingest of detail records (`POST /calls/call_drs`, `POST /sms/message_drs`): the batches the
 * gateway sends the records service, and the report the caller gets.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './detail-record';

/**
 * Records per bus message of a bulk ingest, stored in one transaction; a batch is also cut at
 * INGEST_BATCH_BYTES. 2,000 rather than 500: fewer commits and round trips, about a fifth more
 * records per second on the embedded store (decisions §39), still a few tens of milliseconds each.
 */
export const INGEST_BATCH_RECORDS = 2000;
/** Serialized records per bus message, under NATS's 1 MiB message limit with the envelope. */
export const INGEST_BATCH_BYTES = 768 * 1024;
/** One record's largest JSON text; a larger one is refused at its position. */
export const INGEST_RECORD_MAX_BYTES = 64 * 1024;
/** Errors listed in an ingest report; later ones are only counted (`rejected`). */
export const INGEST_MAX_ERRORS = 1000;
/**
 * Distinct unknown field names listed in `ignored_fields`, and the longest name listed. Every
 * unknown field is dropped; only the listing is bounded, so a hostile body cannot grow the report.
 */
export const INGEST_MAX_IGNORED_FIELDS = 100;
export const INGEST_IGNORED_NAME_MAX = 128;

/** A record refused by bulk ingest: its 0-based position in the body, and why. */
export const RecordIngestErrorSchema = Type.Object(
  {
    dr_sid: Nullable(Type.String()),
    field: Nullable(Type.String()),
    message: Type.String(),
    position: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type RecordIngestError = Static<typeof RecordIngestErrorSchema>;

/** Unknown field name → how many records carried it (stored, duplicate or refused alike). */
export const IgnoredFieldsSchema = Type.Record(Type.String(), Type.Integer({ minimum: 1 }));
export type IgnoredFields = Static<typeof IgnoredFieldsSchema>;

/**
 * The answer of a bulk ingest (200): `received` records were read, `stored` are new, `duplicates`
 * were already stored (same `dr_sid` for the same partner: a replay is not an error), `rejected`
 * were refused and skipped. `errors` lists the first INGEST_MAX_ERRORS refusals by position.
 * `ignored_fields` counts the fields Patchbay does not know, which were dropped (exports grow
 * fields over time; an unknown field never refuses a record). `complete` is false when the body
 * could not be read to its end (broken JSON): the records before that point were processed; send
 * the rest again (replays are harmless).
 */
export const RecordIngestReportSchema = Type.Object(
  {
    complete: Type.Boolean(),
    duplicates: Type.Integer({ minimum: 0 }),
    errors: Type.Array(RecordIngestErrorSchema),
    ignored_fields: IgnoredFieldsSchema,
    received: Type.Integer({ minimum: 0 }),
    rejected: Type.Integer({ minimum: 0 }),
    stored: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, $id: 'RecordIngestReport' },
);
export type RecordIngestReport = Static<typeof RecordIngestReportSchema>;

/**
 * Adds `more` into `into` (a name → count tally), keeping at most INGEST_MAX_IGNORED_FIELDS
 * names and none longer than INGEST_IGNORED_NAME_MAX. A Map, so any name (even `__proto__`) is
 * plain data.
 */
export function tallyIgnoredFields(into: Map<string, number>, more: Iterable<[string, number]>): void {
  for (const [name, n] of more) {
    if (name.length > INGEST_IGNORED_NAME_MAX) continue;
    const had = into.get(name);
    if (had !== undefined) into.set(name, had + n);
    else if (into.size < INGEST_MAX_IGNORED_FIELDS) into.set(name, n);
  }
}

/** The tally as the report's object, names in alphabetical order. */
export function ignoredFieldsObject(tally: Map<string, number>): IgnoredFields {
  return Object.fromEntries([...tally].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
