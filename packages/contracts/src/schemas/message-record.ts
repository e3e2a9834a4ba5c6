/**
 * Message (SMS/MMS) detail records (`/sms/message_drs`). Field list: interface.md ("Items of the
 * message detail record list"); shared types and the ingest contract: ./call-record.ts.
 *
 * Types and validation (Patchbay's choices where the spec is silent, modelled on the compatible
 * API's published samples):
 * - `date_insert`, `date_sent`, `date_start`, `date_stop`: ISO 8601 date-times; only `date_insert`
 *   is always set (it orders the list and every cursor).
 * - `delay_sent` (seconds), `message_segments`: non-negative integers; `mcc`, `mnc`: integers 0..999.
 * - `price`, `rate`: decimal strings (JSON numbers refused).
 * - `type`: `sms` or `mms`; `direction`: `inbound`, `outbound`, `any` or `undirected`.
 * - `media_urls`: array of URLs (at most 10), `[]` when none; `message` at most 16384 characters;
 *   `user_data` at most 4096; `version`: a string or null.
 * - Every field is always returned, `null` when unknown.
 *
 * Ingest (`POST /sms/message_drs`, event `evt.message.recorded`): `dr_sid` is required;
 * `date_insert` defaults to the time the record is stored; `date_stop`, when set with
 * `date_start`, must not precede it. `partner_sid` as for call records.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DecimalStringSchema, RecordDirectionSchema, RecordNumberSchema, SecureIdSchema, TimestampSchema } from './call-record';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Optional = <T extends TSchema>(t: T) => Type.Optional(Nullable(t));

export const MESSAGE_TYPES = ['sms', 'mms'] as const;
const MessageTypeSchema = Type.Union(MESSAGE_TYPES.map((t) => Type.Literal(t)));
const Count = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const NetworkCode = Type.Integer({ minimum: 0, maximum: 999 });
const MediaUrls = Type.Array(Type.String({ format: 'uri', maxLength: 2048 }), { maxItems: 10 });

/** A message detail record as the API returns it. */
export const MessageRecordSchema = Type.Object({
  date_insert: TimestampSchema,
  date_sent: Nullable(TimestampSchema),
  date_start: Nullable(TimestampSchema),
  date_stop: Nullable(TimestampSchema),
  delay_sent: Nullable(Count),
  direction: Nullable(RecordDirectionSchema),
  dr_sid: SecureIdSchema,
  mcc: Nullable(NetworkCode),
  media_urls: MediaUrls,
  message: Nullable(Type.String()),
  message_segments: Nullable(Count),
  mnc: Nullable(NetworkCode),
  number_billing: Nullable(RecordNumberSchema),
  number_dst: Nullable(RecordNumberSchema),
  number_external: Nullable(RecordNumberSchema),
  number_src: Nullable(RecordNumberSchema),
  partner_sid: SecureIdSchema,
  price: Nullable(DecimalStringSchema),
  provider: Nullable(Type.String()),
  rate: Nullable(DecimalStringSchema),
  status: Nullable(Type.String()),
  type: Nullable(MessageTypeSchema),
  user_data: Nullable(Type.String()),
  version: Nullable(Type.String()),
}, { additionalProperties: false, $id: 'MessageRecord' });
export type MessageRecord = Static<typeof MessageRecordSchema>;

/** One message record of a bulk ingest or a `evt.message.recorded` event. */
export const MessageRecordInputSchema = Type.Object({
  date_insert: Type.Optional(TimestampSchema),
  date_sent: Optional(TimestampSchema),
  date_start: Optional(TimestampSchema),
  date_stop: Optional(TimestampSchema),
  delay_sent: Optional(Count),
  direction: Optional(RecordDirectionSchema),
  dr_sid: SecureIdSchema,
  mcc: Optional(NetworkCode),
  media_urls: Type.Optional(Nullable(MediaUrls)),
  message: Optional(Type.String({ maxLength: 16384 })),
  message_segments: Optional(Count),
  mnc: Optional(NetworkCode),
  number_billing: Optional(RecordNumberSchema),
  number_dst: Optional(RecordNumberSchema),
  number_external: Optional(RecordNumberSchema),
  number_src: Optional(RecordNumberSchema),
  partner_sid: Type.Optional(SecureIdSchema),
  price: Optional(DecimalStringSchema),
  provider: Optional(Type.String({ maxLength: 64 })),
  rate: Optional(DecimalStringSchema),
  status: Optional(Type.String({ maxLength: 32 })),
  type: Optional(MessageTypeSchema),
  user_data: Optional(Type.String({ maxLength: 4096 })),
  version: Optional(Type.String({ maxLength: 32 })),
}, { additionalProperties: false, $id: 'MessageRecordInput' });
export type MessageRecordInput = Static<typeof MessageRecordInputSchema>;

/**
 * Payload of `evt.message.recorded` (durable): the message's record, naming its partner.
 * Consumed idempotently by dr_sid; a record that fails validation is logged and dropped.
 */
export interface MessageRecordedEvent { record: MessageRecordInput & { partner_sid: string } }
