import { Subjects, type ExportKind, type GatewayRequest } from '@patchbay/contracts';
import type { RecordsContext } from '../context';
import { CALL_RECORDS, MESSAGE_RECORDS, type RecordKind } from '../domain/record-kinds';
import { cancelExport, createExport, getExport, listExports } from '../operations/exports';

/** `…/calls/call_drs/exports`. */
export function callExportHandlers(ctx: RecordsContext) {
  const h = exportHandlers(ctx, 'call', CALL_RECORDS);
  return {
    [Subjects.records.callExportCreate]: h.create,
    [Subjects.records.callExportList]: h.list,
    [Subjects.records.callExportGet]: h.get,
    [Subjects.records.callExportCancel]: h.cancel,
  };
}

/** `…/sms/message_drs/exports`. */
export function messageExportHandlers(ctx: RecordsContext) {
  const h = exportHandlers(ctx, 'message', MESSAGE_RECORDS);
  return {
    [Subjects.records.messageExportCreate]: h.create,
    [Subjects.records.messageExportList]: h.list,
    [Subjects.records.messageExportGet]: h.get,
    [Subjects.records.messageExportCancel]: h.cancel,
  };
}

/** The export calls of one kind, scoped to the caller (operations/exports.ts). */
function exportHandlers(ctx: RecordsContext, kind: ExportKind, records: RecordKind) {
  return {
    create: (req: GatewayRequest) => createExport(ctx, kind, records, req),
    list: (req: GatewayRequest) => listExports(ctx, kind, req),
    get: (req: GatewayRequest) => getExport(ctx, kind, req),
    cancel: (req: GatewayRequest) => cancelExport(ctx, kind, req),
  };
}
