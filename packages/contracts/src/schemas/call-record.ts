/**
 * Call detail records (`/calls/call_drs`). `CallRecordSchema` is the one list of their fields
 * (docs/interface-notes.md, Detail records and countries, with the compatible API's published sample for the types
 * it leaves open); the ingest schema, the stored document, the serializer and the list spec are
 * derived from it. Shared value types: ./detail-record.ts.
 *
 * - `duration`, `duration_billing`: seconds as decimal strings (`"4.25015"`, `"60"`).
 * - `price*`, `rate*` (with the least-cost-routing legs `*_lcr_src`/`*_lcr_dst`): decimal strings.
 * - `sipcause`: the final SIP status code as a string (`"200"`); `stir_identity` is a string too
 *   (`"false"` in the compatible API's sample), `transcoded` a boolean, `version` an integer.
 * - `ip_src`/`ip_dst`: the address as recorded (`"10.222.2.197:5060"`).
 *
 * Ingest (`POST /calls/call_drs`, event `evt.call.completed`): `dr_sid`, `date_start` and `date_stop`
 * are required (`date_stop` orders the list and every cursor; it must not precede `date_start`;
 * `date_talk`, when set, lies between them). `date_insert` defaults to the time the record is
 * stored; `duration` defaults to `date_stop − date_start`. `partner_sid` may be omitted (the
 * caller's) or must be the caller's; an event must carry it.
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  DecimalStringSchema,
  Nullable,
  RecordCountSchema,
  RecordDirectionSchema,
  RecordNumberSchema,
  RecordText,
  SecondsStringSchema,
  SecureIdSchema,
  TimestampSchema,
  recordInputSchema,
  type RecordInput,
} from './detail-record';

const Decimal = Nullable(DecimalStringSchema);
const Number_ = Nullable(RecordNumberSchema);
const SipHeader = Nullable(RecordText(1024));

/** A call detail record as the API returns it (keys in alphabetical order). */
export const CallRecordSchema = Type.Object(
  {
    cic: Nullable(RecordText(64)),
    cic_original: Nullable(RecordText(64)),
    cic_transformed: Nullable(RecordText(64)),
    codec_dst: Nullable(RecordText(32)),
    codec_src: Nullable(RecordText(32)),
    date_insert: TimestampSchema,
    date_start: TimestampSchema,
    date_stop: TimestampSchema,
    date_talk: Nullable(TimestampSchema),
    direction: Nullable(RecordDirectionSchema),
    disconnect_originator: Nullable(RecordText(32)),
    diversion_dst: SipHeader,
    diversion_src: SipHeader,
    dr_sid: SecureIdSchema,
    duration: Nullable(SecondsStringSchema),
    duration_billing: Nullable(SecondsStringSchema),
    endpoint_sid_dst: Nullable(SecureIdSchema),
    endpoint_sid_src: Nullable(SecureIdSchema),
    identity: SipHeader,
    ip_dst: Nullable(RecordText(64)),
    ip_src: Nullable(RecordText(64)),
    number_billing: Number_,
    number_dst: Number_,
    number_dst_original: Number_,
    number_dst_transformed: Number_,
    number_external: Number_,
    number_src: Number_,
    number_src_original: Number_,
    number_src_transformed: Number_,
    partner_sid: SecureIdSchema,
    price: Decimal,
    price_lcr_dst: Decimal,
    price_lcr_src: Decimal,
    rate: Decimal,
    rate_lcr_dst: Decimal,
    rate_lcr_src: Decimal,
    sipcallid_dst: SipHeader,
    sipcallid_src: SipHeader,
    sipcause: Nullable(Type.String({ pattern: '^[1-6][0-9]{2}$' })),
    stir_attest: Nullable(RecordText(32)),
    stir_identity: Nullable(RecordText(4096)),
    stir_orig_id: Nullable(RecordText(256)),
    stir_signing_entity: Nullable(RecordText(256)),
    stir_verstat: Nullable(RecordText(64)),
    transcoded: Nullable(Type.Boolean()),
    trunk_group_sid_dst: Nullable(SecureIdSchema),
    trunk_group_sid_src: Nullable(SecureIdSchema),
    user_data: Nullable(RecordText(4096)),
    version: Nullable(RecordCountSchema),
  },
  { additionalProperties: false, $id: 'CallRecord' },
);
export type CallRecord = Static<typeof CallRecordSchema>;

/** Fields a call record must carry on ingest. */
export const CALL_RECORD_REQUIRED = ['dr_sid', 'date_start', 'date_stop'] as const;

/** One call record of a bulk ingest or a `evt.call.completed` event (derived from CallRecordSchema). */
export const CallRecordInputSchema = recordInputSchema(CallRecordSchema, CALL_RECORD_REQUIRED, 'CallRecordInput');
export type CallRecordInput = RecordInput<CallRecord, (typeof CALL_RECORD_REQUIRED)[number]>;

/**
 * Payload of `evt.call.completed` (durable): the finished call's record, naming its partner.
 * Consumed idempotently by (partner_sid, dr_sid); a record that fails validation is logged and dropped.
 */
export interface CallCompletedEvent {
  record: CallRecordInput & { partner_sid: string };
}
