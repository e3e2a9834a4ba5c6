import { Subjects, type GatewayRequest, type RecordIngestBatch } from '@patchbay/contracts';
import type { HandlerContext } from '@patchbay/platform';
import { CALL_RECORDS, MESSAGE_RECORDS, type RecordKind } from '../domain/record-kinds';
import { getRecord, ingestBatch, listRecords, type DetailRecordsContext } from '../operations/detail-records';

/** `GET /calls/call_drs`, `GET /calls/call_drs/{dr_sid}` and the bulk ingest of call records. */
export function callRecordHandlers(ctx: DetailRecordsContext) {
  const calls = kindHandlers(ctx, CALL_RECORDS);
  return {
    [Subjects.records.callList]: calls.list,
    [Subjects.records.callGet]: calls.get,
    [Subjects.records.callIngest]: calls.ingest,
  };
}

/** `GET /sms/message_drs`, `GET /sms/message_drs/{dr_sid}` and the bulk ingest of message records. */
export function messageRecordHandlers(ctx: DetailRecordsContext) {
  const messages = kindHandlers(ctx, MESSAGE_RECORDS);
  return {
    [Subjects.records.messageList]: messages.list,
    [Subjects.records.messageGet]: messages.get,
    [Subjects.records.messageIngest]: messages.ingest,
  };
}

/** The handlers of one kind of detail record, the same for both kinds (operations/detail-records.ts). */
function kindHandlers(ctx: DetailRecordsContext, kind: RecordKind) {
  return {
    list: (req: GatewayRequest, mc?: HandlerContext) => listRecords(ctx, kind, req, mc),
    get: (req: GatewayRequest) => getRecord(ctx, kind, req),
    ingest: (batch: RecordIngestBatch) => ingestBatch(ctx, kind, batch),
  };
}
