import { Type, type Static } from '@sinclair/typebox';
import { GatewayRequestSchema, PrincipalSchema } from '../gateway-request';
import { CallRecordSchema } from '../schemas/call-record';
import { CountrySchema } from '../schemas/country';
import { AnyListEnvelopeSchema } from '../schemas/envelope';
import { MessageRecordSchema } from '../schemas/message-record';
import { RecordExportCreatedSchema, RecordExportSchema } from '../schemas/record-export';
import { CallUsageSchema, MessageUsageSchema } from '../schemas/record-usage';
import { INGEST_BATCH_RECORDS, IgnoredFieldsSchema, RecordIngestErrorSchema } from '../schemas/record-ingest';
import { Subjects } from '../subjects';
import type { PayloadSpec, RequestSpec } from './message-spec';

/**
 * The records service's bus messages: the list and get calls the gateway forwards, the bulk-ingest
 * batches its ingest route sends (clients/records-client.ts), and the durable record events.
 */

/** A field filter (include_fields / exclude_fields) may leave any subset of a record's fields. */
const Selected = Type.Object({}, { additionalProperties: true });

/**
 * One batch of a bulk ingest (`Subjects.records.callIngest` / `messageIngest`): `records[i]` is the
 * body's record at `first_position + i`; `null` marks a slot the gateway has already refused
 * (unreadable JSON, not an object, too large). Each record is checked by the records service,
 * which reports the fields at fault per position.
 */
export const RecordIngestBatchSchema = Type.Object({
  principal: PrincipalSchema,
  first_position: Type.Integer({ minimum: 0 }),
  records: Type.Array(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]), {
    maxItems: 2 * INGEST_BATCH_RECORDS,
  }),
});
export type RecordIngestBatch = Static<typeof RecordIngestBatchSchema>;

/**
 * What the records service answers for one batch. `ignored_fields` may be absent in an answer
 * from a records replica older than the field (during a rolling update): read it as `{}`.
 */
export const RecordIngestBatchResultSchema = Type.Object({
  stored: Type.Integer({ minimum: 0 }),
  duplicates: Type.Integer({ minimum: 0 }),
  errors: Type.Array(RecordIngestErrorSchema),
  ignored_fields: Type.Optional(IgnoredFieldsSchema),
});
export type RecordIngestBatchResult = Static<typeof RecordIngestBatchResultSchema>;

export const RecordsRequests = {
  [Subjects.records.countryList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.records.countryGet]: { request: GatewayRequestSchema, reply: Type.Partial(CountrySchema) },
  [Subjects.records.callList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.records.callGet]: { request: GatewayRequestSchema, reply: Type.Partial(CallRecordSchema) },
  [Subjects.records.callIngest]: { request: RecordIngestBatchSchema, reply: RecordIngestBatchResultSchema },
  [Subjects.records.messageList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.records.messageGet]: { request: GatewayRequestSchema, reply: Type.Partial(MessageRecordSchema) },
  [Subjects.records.messageIngest]: { request: RecordIngestBatchSchema, reply: RecordIngestBatchResultSchema },
  [Subjects.records.callExportCreate]: { request: GatewayRequestSchema, reply: RecordExportCreatedSchema },
  [Subjects.records.callExportList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.records.callExportGet]: { request: GatewayRequestSchema, reply: Type.Partial(RecordExportSchema) },
  [Subjects.records.callExportCancel]: { request: GatewayRequestSchema, reply: RecordExportSchema },
  [Subjects.records.messageExportCreate]: { request: GatewayRequestSchema, reply: RecordExportCreatedSchema },
  [Subjects.records.messageExportList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.records.messageExportGet]: { request: GatewayRequestSchema, reply: Type.Partial(RecordExportSchema) },
  [Subjects.records.messageExportCancel]: { request: GatewayRequestSchema, reply: RecordExportSchema },
  [Subjects.records.callUsage]: { request: GatewayRequestSchema, reply: CallUsageSchema },
  [Subjects.records.messageUsage]: { request: GatewayRequestSchema, reply: MessageUsageSchema },
} as const satisfies Record<(typeof Subjects.records)[keyof typeof Subjects.records], RequestSpec>;

/**
 * `evt.call.completed` / `evt.message.recorded`: one record of the kind (CallRecordInput /
 * MessageRecordInput) naming its partner. Its fields are checked as ingest checks them: a record
 * that can never be stored is logged and dropped.
 */
export const RecordEventSchema = Type.Object({ record: Selected });
export type RecordEvent = Static<typeof RecordEventSchema>;

export const RecordsEvents = {
  [Subjects.events.callCompleted]: { payload: RecordEventSchema },
  [Subjects.events.messageRecorded]: { payload: RecordEventSchema },
} as const satisfies Record<string, PayloadSpec>;
