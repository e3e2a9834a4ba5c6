import { Type } from '@sinclair/typebox';
import {
  CallRecordInputSchema,
  CallRecordSchema,
  ListEnvelopeSchema,
  MessageRecordInputSchema,
  MessageRecordSchema,
  RecordIngestReportSchema,
  Subjects,
} from '@patchbay/contracts';
import { ingestRoute } from './ingest-routes';
import type { RouteDef } from '../http/route-def';

const NDJSON = [
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'application/jsonlines',
];
const INGEST =
  'A JSON array of records, or one record per line (NDJSON), streamed: ' +
  'any size. Known fields are type-checked (a bad record is refused by ' +
  'position), unknown ones dropped and counted; re-sending a `dr_sid` is ' +
  'a duplicate, not an error. `gzip`, `deflate`, `br` and `zstd` ' +
  'Content-Encodings are read.';

/** An ingest body: a JSON array, or NDJSON (one record per line). */
const ingestBody = (record: typeof CallRecordInputSchema) => ({
  content: { 'application/json': Type.Array(record), ...Object.fromEntries(NDJSON.map((t) => [t, record])) },
});

/**
 * Call and message detail records: reads, and bulk ingest (`POST` on the same paths, with the
 * create scopes), whose body streams: see ingest-routes.ts.
 */
export const RECORD_ROUTES: RouteDef[] = [
  {
    method: 'get',
    path: '/calls/call_drs',
    subject: Subjects.records.callList,
    scopes: ['calls.manage', 'calls.read'],
    doc: {
      summary: 'List call detail records',
      description: 'With `after`/`before`, `order` is limited to `date_stop`; `total` is null.',
      list: 'cursor',
      responses: { 200: ListEnvelopeSchema(CallRecordSchema) },
    },
  },
  {
    method: 'get',
    path: '/calls/call_drs/:dr_sid',
    subject: Subjects.records.callGet,
    scopes: ['calls.manage', 'calls.read'],
    doc: { summary: 'Get a call detail record', fields: true, responses: { 200: CallRecordSchema } },
  },
  {
    method: 'get',
    path: '/sms/message_drs',
    subject: Subjects.records.messageList,
    scopes: ['sms.manage', 'sms.read'],
    doc: {
      summary: 'List message detail records',
      description: 'With `after`/`before`, `order` is limited to `date_insert` (or `date_stop`); `total` is null.',
      list: 'cursor',
      responses: { 200: ListEnvelopeSchema(MessageRecordSchema) },
    },
  },
  {
    method: 'get',
    path: '/sms/message_drs/:dr_sid',
    subject: Subjects.records.messageGet,
    scopes: ['sms.manage', 'sms.read'],
    doc: { summary: 'Get a message detail record', fields: true, responses: { 200: MessageRecordSchema } },
  },
  {
    method: 'post',
    path: '/calls/call_drs',
    subject: Subjects.records.callIngest,
    scopes: ['calls.manage', 'calls.create'],
    body: 'stream',
    handler: ingestRoute,
    doc: {
      summary: 'Bulk-ingest call detail records',
      description: INGEST,
      request: ingestBody(CallRecordInputSchema),
      responses: { 200: RecordIngestReportSchema },
      errors: [415],
    },
  },
  {
    method: 'post',
    path: '/sms/message_drs',
    subject: Subjects.records.messageIngest,
    scopes: ['sms.manage', 'sms.create'],
    body: 'stream',
    handler: ingestRoute,
    doc: {
      summary: 'Bulk-ingest message detail records',
      description: INGEST,
      request: ingestBody(MessageRecordInputSchema),
      responses: { 200: RecordIngestReportSchema },
      errors: [415],
    },
  },
];
