import {
  ListEnvelopeSchema,
  RecordExportCreateSchema,
  RecordExportCreatedSchema,
  RecordExportSchema,
  Subjects,
} from '@patchbay/contracts';
import type { RouteDef } from '../http/route-def';

const CREATE =
  'Writes every record the `filter` (the list grammar) selects, in listing order (`date_stop`, then ' +
  '`dr_sid`), into one file of the container: NDJSON (each record as the list returns it) or CSV ' +
  '(RFC 4180, the list field names as header), gzipped unless `compression` is `none`. A durable job: ' +
  'the answer is 202 with the export; the file exists only once it is complete (a failed or cancelled ' +
  'export leaves none), and is then an ordinary file of the container. Needs `storage.manage` as well. ' +
  'With `callback_url`, one signed POST (`X-Patchbay-Signature`, keyed with the `callback_signing_key` ' +
  'of this answer, shown once) with a stable `X-Patchbay-Event-Id`, retried until a 2xx.';

/** The export routes of one kind of record (mounted before `…/:dr_sid`, which would take `exports` for a SID). */
function exportRoutes(
  base: string,
  noun: string,
  scopes: readonly string[],
  subjects: { create: string; list: string; get: string; cancel: string },
): RouteDef[] {
  return [
    {
      method: 'post',
      path: `${base}/exports`,
      subject: subjects.create,
      scopes,
      doc: {
        summary: `Export ${noun} detail records into a file`,
        description: CREATE,
        request: RecordExportCreateSchema,
        responses: { 202: RecordExportCreatedSchema },
        errors: [403, 422],
      },
    },
    {
      method: 'get',
      path: `${base}/exports`,
      subject: subjects.list,
      scopes,
      doc: {
        summary: `List exports of ${noun} detail records`,
        list: 'offset',
        responses: { 200: ListEnvelopeSchema(RecordExportSchema) },
      },
    },
    {
      method: 'get',
      path: `${base}/exports/:export_sid`,
      subject: subjects.get,
      scopes,
      doc: { summary: `Get an export of ${noun} detail records`, responses: { 200: RecordExportSchema } },
    },
    {
      method: 'delete',
      path: `${base}/exports/:export_sid`,
      subject: subjects.cancel,
      scopes,
      doc: {
        summary: `Cancel an export of ${noun} detail records`,
        description: 'A queued or running export only (409 once it has ended): it leaves no file.',
        responses: { 200: RecordExportSchema },
        errors: [409],
      },
    },
  ];
}

/** Bulk exports of call and message detail records (docs/interface-notes.md, Record exports). */
export const RECORD_EXPORT_ROUTES: RouteDef[] = [
  ...exportRoutes('/calls/call_drs', 'call', ['calls.manage', 'calls.read'], {
    create: Subjects.records.callExportCreate,
    list: Subjects.records.callExportList,
    get: Subjects.records.callExportGet,
    cancel: Subjects.records.callExportCancel,
  }),
  ...exportRoutes('/sms/message_drs', 'message', ['sms.manage', 'sms.read'], {
    create: Subjects.records.messageExportCreate,
    list: Subjects.records.messageExportList,
    get: Subjects.records.messageExportGet,
    cancel: Subjects.records.messageExportCancel,
  }),
];
