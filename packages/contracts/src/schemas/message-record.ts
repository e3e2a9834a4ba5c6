/**
 * Message (SMS/MMS) detail records (`/sms/message_drs`). `MessageRecordSchema` is the one list of
 * their fields (docs/interface-notes.md, Detail records and countries, with the compatible API's published sample
 * for the types it leaves open); the ingest schema, the stored document, the serializer and the
 * list spec are derived from it. Shared value types: ./detail-record.ts.
 *
 * - `date_*`: ISO 8601 date-times; only `date_insert` is always set (it orders the list; with
 *   after/before `date_stop` may order it too, records without one coming first in ascending order).
 * - `delay_sent` (seconds), `message_segments`: non-negative integers; `mcc`, `mnc`: integers 0..999.
 * - `price`, `rate`, `mcc_mnc_*`, `passthrough_*`: decimal strings (JSON numbers refused).
 * - `type`: `sms` or `mms`; `direction`: `inbound`, `outbound`, `any` or `undirected`.
 * - `media_urls`: URLs (at most 10), `number_group_dst`: numbers (at most 100); `[]` when none.
 * - `vendor_error_code` is a string (`"503"` in the compatible API's sample); `version` a string or an
 *   integer (the interface leaves its type open; reference-facts "Compatibility settings"), returned as given.
 *
 * Ingest (`POST /sms/message_drs`, event `evt.message.recorded`): `dr_sid` is required;
 * `date_insert` defaults to the time the record is stored. `partner_sid` as for call records.
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  DecimalStringSchema,
  Nullable,
  RecordCountSchema,
  RecordDirectionSchema,
  RecordNumberSchema,
  RecordText,
  SecureIdSchema,
  TimestampSchema,
  recordInputSchema,
  type RecordInput,
} from './detail-record';

export const MESSAGE_TYPES = ['sms', 'mms'] as const;
const MessageTypeSchema = Type.Union(MESSAGE_TYPES.map((t) => Type.Literal(t)));
const NetworkCode = Type.Integer({ minimum: 0, maximum: 999 });
const Decimal = Nullable(DecimalStringSchema);
const Number_ = Nullable(RecordNumberSchema);
const Date_ = Nullable(TimestampSchema);

/** A message detail record as the API returns it (keys in alphabetical order). */
export const MessageRecordSchema = Type.Object(
  {
    a2p_campaign: Nullable(RecordText(64)),
    date_changed: Date_,
    date_insert: TimestampSchema,
    date_sent: Date_,
    date_start: Date_,
    date_stop: Date_,
    delay_sent: Nullable(RecordCountSchema),
    direction: Nullable(RecordDirectionSchema),
    dr_sid: SecureIdSchema,
    mcc: Nullable(NetworkCode),
    mcc_mnc_price: Decimal,
    mcc_mnc_rate: Decimal,
    media_urls: Type.Array(Type.String({ format: 'uri', maxLength: 2048 }), { maxItems: 10 }),
    message: Nullable(RecordText(16384)),
    message_segments: Nullable(RecordCountSchema),
    mnc: Nullable(NetworkCode),
    number_billing: Number_,
    number_dst: Number_,
    number_external: Number_,
    number_group_dst: Type.Array(RecordNumberSchema, { maxItems: 100 }),
    number_src: Number_,
    p2p_nnid: Nullable(RecordText(64)),
    partner_sid: SecureIdSchema,
    passthrough_price: Decimal,
    passthrough_rate: Decimal,
    price: Decimal,
    provider: Nullable(RecordText(64)),
    rate: Decimal,
    registration_type: Nullable(RecordText(64)),
    status: Nullable(RecordText(32)),
    type: Nullable(MessageTypeSchema),
    user_data: Nullable(RecordText(4096)),
    vendor_error_code: Nullable(RecordText(64)),
    version: Nullable(Type.Union([RecordText(32), RecordCountSchema])),
  },
  { additionalProperties: false, $id: 'MessageRecord' },
);
export type MessageRecord = Static<typeof MessageRecordSchema>;

/** Fields a message record must carry on ingest. */
export const MESSAGE_RECORD_REQUIRED = ['dr_sid'] as const;

/** One message record of a bulk ingest or a `evt.message.recorded` event (derived from MessageRecordSchema). */
export const MessageRecordInputSchema = recordInputSchema(
  MessageRecordSchema,
  MESSAGE_RECORD_REQUIRED,
  'MessageRecordInput',
);
export type MessageRecordInput = RecordInput<MessageRecord, (typeof MESSAGE_RECORD_REQUIRED)[number]>;

/**
 * Payload of `evt.message.recorded` (durable): the message's record, naming its partner.
 * Consumed idempotently by (partner_sid, dr_sid); a record that fails validation is logged and dropped.
 */
export interface MessageRecordedEvent {
  record: MessageRecordInput & { partner_sid: string };
}
