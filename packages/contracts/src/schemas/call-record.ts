/**
 * Call detail records (`/calls/call_drs`), and what every detail record shares: field types, the
 * bulk-ingest batch that travels on the bus, and the ingest report.
 *
 * Types and validation (interface.md, reference-facts.md "Lists of records"; where both are
 * silent, Patchbay's choice, modelled on the compatible API's published samples):
 * - Secure IDs (`dr_sid`, `partner_sid`, `endpoint_sid_*`) are UUIDs; `dr_sid` is stored lower case.
 * - Timestamps are ISO 8601 date-times with a zone (RFC 3339); returned in UTC with milliseconds.
 * - Money (`price`, `rate`) and seconds (`duration`, `duration_billing`) are decimal strings
 *   (`"0.0025"`, `"4.25015"`, `"60"`): exact, never JSON numbers, which may already have lost
 *   digits. A JSON number there is refused, not converted. Money may be negative (credits);
 *   seconds may not.
 * - `sipcause` is the final SIP status code as a string (`"200"`, `"486"`).
 * - `direction`: `inbound`, `outbound`, `any` or `undirected`.
 * - Every field is always returned, `null` when unknown.
 *
 * Ingest (`POST /calls/call_drs`, event `evt.call.completed`): `dr_sid`, `date_start` and `date_stop`
 * are required (`date_stop` orders the list and every cursor; it must not precede `date_start`;
 * `date_talk`, when set, lies between them). `date_insert` defaults to the time the record is
 * stored; `duration` defaults to `date_stop − date_start`. `partner_sid` may be omitted (the
 * caller's) or must be the caller's; an event must carry it.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Principal } from '../gateway-request';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A secure ID: a UUID in its plain 36-character form (no `urn:uuid:` prefix, unlike format 'uuid'). */
export const SecureIdSchema = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
/** An ISO 8601 date-time with a zone. */
export const TimestampSchema = Type.String({ format: 'date-time' });
/** An exact signed decimal, as a string (`"0.0025"`, `"-1.5"`). */
export const DecimalStringSchema = Type.String({ pattern: '^-?(0|[1-9][0-9]{0,17})(\\.[0-9]{1,12})?$' });
/** Non-negative decimal seconds, as a string (`"4.25015"`). */
export const SecondsStringSchema = Type.String({ pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,9})?$' });
/** A phone number or SIP user as recorded (E.164 digits, with or without `+`, or a name). */
export const RecordNumberSchema = Type.String({ maxLength: 64 });

export const RECORD_DIRECTIONS = ['inbound', 'outbound', 'any', 'undirected'] as const;
export const RecordDirectionSchema = Type.Union(RECORD_DIRECTIONS.map((d) => Type.Literal(d)));

/** A call detail record as the API returns it. */
export const CallRecordSchema = Type.Object({
  codec_dst: Nullable(Type.String()),
  codec_src: Nullable(Type.String()),
  date_insert: TimestampSchema,
  date_start: TimestampSchema,
  date_stop: TimestampSchema,
  date_talk: Nullable(TimestampSchema),
  direction: Nullable(RecordDirectionSchema),
  dr_sid: SecureIdSchema,
  duration: Nullable(SecondsStringSchema),
  duration_billing: Nullable(SecondsStringSchema),
  endpoint_sid_dst: Nullable(SecureIdSchema),
  endpoint_sid_src: Nullable(SecureIdSchema),
  number_billing: Nullable(RecordNumberSchema),
  number_dst: Nullable(RecordNumberSchema),
  number_external: Nullable(RecordNumberSchema),
  number_src: Nullable(RecordNumberSchema),
  partner_sid: SecureIdSchema,
  price: Nullable(DecimalStringSchema),
  rate: Nullable(DecimalStringSchema),
  sipcause: Nullable(Type.String()),
}, { additionalProperties: false, $id: 'CallRecord' });
export type CallRecord = Static<typeof CallRecordSchema>;

/** One call record of a bulk ingest or a `evt.call.completed` event. */
export const CallRecordInputSchema = Type.Object({
  codec_dst: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  codec_src: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  date_insert: Type.Optional(TimestampSchema),
  date_start: TimestampSchema,
  date_stop: TimestampSchema,
  date_talk: Type.Optional(Nullable(TimestampSchema)),
  direction: Type.Optional(Nullable(RecordDirectionSchema)),
  dr_sid: SecureIdSchema,
  duration: Type.Optional(Nullable(SecondsStringSchema)),
  duration_billing: Type.Optional(Nullable(SecondsStringSchema)),
  endpoint_sid_dst: Type.Optional(Nullable(SecureIdSchema)),
  endpoint_sid_src: Type.Optional(Nullable(SecureIdSchema)),
  number_billing: Type.Optional(Nullable(RecordNumberSchema)),
  number_dst: Type.Optional(Nullable(RecordNumberSchema)),
  number_external: Type.Optional(Nullable(RecordNumberSchema)),
  number_src: Type.Optional(Nullable(RecordNumberSchema)),
  partner_sid: Type.Optional(SecureIdSchema),
  price: Type.Optional(Nullable(DecimalStringSchema)),
  rate: Type.Optional(Nullable(DecimalStringSchema)),
  sipcause: Type.Optional(Nullable(Type.String({ pattern: '^[1-6][0-9]{2}$' }))),
}, { additionalProperties: false, $id: 'CallRecordInput' });
export type CallRecordInput = Static<typeof CallRecordInputSchema>;

// ---- Bulk ingest (shared by call and message records) ----

/** Records per bus message of a bulk ingest; a batch is also cut at INGEST_BATCH_BYTES. */
export const INGEST_BATCH_RECORDS = 500;
/** Serialized records per bus message, well under NATS's 1 MiB message limit. */
export const INGEST_BATCH_BYTES = 512 * 1024;
/** One record's largest JSON text; a larger one is refused at its position. */
export const INGEST_RECORD_MAX_BYTES = 64 * 1024;
/** Errors listed in an ingest report; later ones are only counted (`rejected`). */
export const INGEST_MAX_ERRORS = 1000;

/** A record refused by bulk ingest: its 0-based position in the body, and why. */
export const RecordIngestErrorSchema = Type.Object({
  dr_sid: Nullable(Type.String()),
  field: Nullable(Type.String()),
  message: Type.String(),
  position: Type.Integer({ minimum: 0 }),
}, { additionalProperties: false });
export type RecordIngestError = Static<typeof RecordIngestErrorSchema>;

/**
 * The answer of `POST /calls/call_drs` and `POST /sms/message_drs` (200): `received` records were
 * read, `stored` are new, `duplicates` were already stored (same `dr_sid`: a replay is not an
 * error), `rejected` were refused and skipped. `errors` lists the first INGEST_MAX_ERRORS refusals
 * by position. `complete` is false when the body could not be read to its end (broken JSON): the
 * records before that point were processed; send the rest again (replays are harmless).
 */
export const RecordIngestReportSchema = Type.Object({
  complete: Type.Boolean(),
  duplicates: Type.Integer({ minimum: 0 }),
  errors: Type.Array(RecordIngestErrorSchema),
  received: Type.Integer({ minimum: 0 }),
  rejected: Type.Integer({ minimum: 0 }),
  stored: Type.Integer({ minimum: 0 }),
}, { additionalProperties: false, $id: 'RecordIngestReport' });
export type RecordIngestReport = Static<typeof RecordIngestReportSchema>;

/**
 * One batch of a bulk ingest on the bus (`Subjects.records.callIngest` / `messageIngest`):
 * `records[i]` is the body's record at `first_position + i`; `null` marks a slot the gateway has
 * already refused (unreadable JSON, not an object, too large).
 */
export interface RecordIngestBatch {
  principal: Principal;
  first_position: number;
  records: Array<Record<string, unknown> | null>;
}

/** What the records service answers for one batch. */
export interface RecordIngestBatchResult {
  stored: number;
  duplicates: number;
  errors: RecordIngestError[];
}

/**
 * Payload of `evt.call.completed` (durable): the finished call's record, naming its partner.
 * Consumed idempotently by dr_sid; a record that fails validation is logged and dropped.
 */
export interface CallCompletedEvent { record: CallRecordInput & { partner_sid: string } }
