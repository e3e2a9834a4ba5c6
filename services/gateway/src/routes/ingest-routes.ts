import { isJsonObject } from '@patchbay/platform';
import type { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import {
  BadRequestError,
  MAX_JSON_DEPTH,
  jsonDepth,
  INGEST_BATCH_BYTES,
  INGEST_BATCH_RECORDS,
  INGEST_MAX_ERRORS,
  INGEST_RECORD_MAX_BYTES,
  RecordsClient,
  UnsupportedMediaTypeError,
  ignoredFieldsObject,
  isRecordIngestSubject,
  tallyIgnoredFields,
  type RecordIngestBatch,
  type RecordIngestBatchResult,
  type RecordIngestError,
  type RecordIngestReport,
} from '@patchbay/contracts';
import type { RouteDef, StreamDeps } from '../http/route-def';
import { sendJson } from '../http/respond';
import { decodedBody } from '../http/content-encoding';
import { BodyStopped, readBodyItems, type BodyItem, type IngestFormat } from './ingest-stream';
import { callerOf } from '../auth/caller';

/** How long the gateway waits for the records service to answer one batch. */
export const INGEST_BATCH_TIMEOUT_MS = 120_000;

export type IngestDeps = Pick<StreamDeps, 'bus' | 'logger' | 'timeoutMs'>;

const NDJSON_TYPES = [
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'application/jsonlines',
];

function formatOf(req: Request): IngestFormat {
  if (req.is(NDJSON_TYPES)) return 'ndjson';
  if (req.is(['application/json', 'application/*+json'])) return 'json-array';
  throw new UnsupportedMediaTypeError({
    message: 'send a JSON array (application/json) or one record per line (application/x-ndjson)',
  });
}

/**
 * `POST /calls/call_drs` and `POST /sms/message_drs`: bulk ingest of detail records, streamed. The
 * body (JSON array or NDJSON) is parsed incrementally and sent to the records service in batches
 * of INGEST_BATCH_RECORDS records or INGEST_BATCH_BYTES bytes, with their positions, one batch in
 * flight while the next is read — the gateway never holds the whole body. Unreadable slots
 * (broken NDJSON line, not an object, too large) are refused here; the service validates the rest.
 * The answer is a RecordIngestReport (200); a body broken before its first record is a 400.
 */
export function ingestRoute(deps: IngestDeps, route: RouteDef): RequestHandler {
  const log = deps.logger.child({ mod: 'ingest' });
  const subject = route.subject;
  if (!isRecordIngestSubject(subject)) throw new Error(`ingest route ${route.path} needs a records ingest subject`);
  // A batch is one transaction of a few milliseconds; the long timeout only catches a service that is gone,
  // so a slow moment never turns into a 504 for records that were in fact stored.
  const records = new RecordsClient(deps.bus, { timeoutMs: Math.max(deps.timeoutMs, INGEST_BATCH_TIMEOUT_MS) });
  return async (req: Request, res: Response) => {
    let format: IngestFormat;
    let body: Readable;
    try {
      format = formatOf(req);
      body = decodedBody(req);
    } catch (err) {
      req.resume();
      throw err;
    }
    const principal = callerOf(res);
    const requestId = String(req.headers['x-request-id'] ?? '');
    const report = await ingestBody(readBodyItems(body, format), (batch) =>
      records.ingest(subject, { principal, ...batch }, { requestId }),
    ).catch((err: unknown) => {
      res.setHeader('Connection', 'close');
      throw err;
    });
    log.info(
      {
        partner_sid: principal.partner_sid,
        path: route.path,
        received: report.received,
        stored: report.stored,
        duplicates: report.duplicates,
        rejected: report.rejected,
        complete: report.complete,
      },
      'bulk ingest',
    );
    if (!report.complete) res.setHeader('Connection', 'close'); // the rest of the body is not read
    sendJson(res, 200, report);
  };
}

type Send = (batch: Pick<RecordIngestBatch, 'first_position' | 'records'>) => Promise<RecordIngestBatchResult>;

/**
 * Reads every item, batches the records and sends each batch once the previous one is answered,
 * and sums the answers into the report (`ignored_fields` added up by name). The records service
 * stores a batch in one transaction, so a batch is stored whole or not at all. A failed batch
 * (service down, an error, the long batch timeout) ends the ingest: before any record was stored it
 * rejects (a 503/504 that stored nothing); after, the answer is the report of what was stored, with
 * `complete: false` and an error at the failed batch's first position; the rest of the body is not read.
 * Either way a retry of the whole body is harmless (stored records count as duplicates).
 */
export async function ingestBody(items: AsyncIterable<BodyItem>, send: Send): Promise<RecordIngestReport> {
  const report: RecordIngestReport = {
    complete: true,
    duplicates: 0,
    errors: [],
    ignored_fields: {},
    received: 0,
    rejected: 0,
    stored: 0,
  };
  const ignored = new Map<string, number>();
  const addErrors = (errors: RecordIngestError[]) => {
    report.errors.push(...errors);
    if (report.errors.length > 2 * INGEST_MAX_ERRORS)
      report.errors = report.errors.sort((a, b) => a.position - b.position).slice(0, INGEST_MAX_ERRORS);
  };
  const refuse = (position: number, message: string, value?: unknown) => {
    report.rejected++;
    const drSid = isJsonObject(value) ? value.dr_sid : undefined;
    addErrors([{ position, dr_sid: typeof drSid === 'string' ? drSid : null, field: null, message }]);
  };

  let batch: Array<Record<string, unknown> | null> = [];
  let first = 0;
  let bytes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  let failed: { position: number; records: number; err: unknown } | undefined;
  const flush = async () => {
    if (batch.length === 0 || failed) return;
    const records = batch;
    const firstPosition = first;
    batch = [];
    bytes = 0;
    await inFlight;
    if (failed) return;
    inFlight = send({ first_position: firstPosition, records }).then(
      (r) => {
        report.stored += r.stored;
        report.duplicates += r.duplicates;
        report.rejected += new Set(r.errors.map((e) => e.position)).size;
        addErrors(r.errors);
        tallyIgnoredFields(ignored, Object.entries(r.ignored_fields ?? {}));
      },
      (err: unknown) => {
        failed = { position: firstPosition, records: records.filter(Boolean).length, err };
      },
    );
  };

  try {
    for await (const item of items) {
      report.received++;
      // Positions are consecutive (NDJSON counts broken lines too), so a batch is one run of them.
      if (batch.length === 0) first = item.position;
      if ('error' in item) {
        refuse(item.position, item.error);
        batch.push(null);
        continue;
      }
      const { value } = item;
      const record = isJsonObject(value) ? value : null;
      const tooDeep = record !== null && jsonDepth(record) > MAX_JSON_DEPTH;
      const size = record && !tooDeep ? Buffer.byteLength(JSON.stringify(record)) : -1;
      if (!record) {
        refuse(item.position, 'a record must be a JSON object');
        batch.push(null);
      } else if (tooDeep) {
        refuse(item.position, `a record must not nest more than ${MAX_JSON_DEPTH} levels deep`);
        batch.push(null);
      } else if (size > INGEST_RECORD_MAX_BYTES) {
        refuse(item.position, `a record must not exceed ${INGEST_RECORD_MAX_BYTES} bytes of JSON`, value);
        batch.push(null);
      } else {
        batch.push(record);
        bytes += size;
      }
      if (batch.length >= INGEST_BATCH_RECORDS || bytes >= INGEST_BATCH_BYTES) await flush();
      if (failed) break;
    }
  } catch (err) {
    if (!(err instanceof BodyStopped)) throw err;
    if (report.received === 0)
      throw new BadRequestError({
        message: 'No JSON object could be decoded',
        errors: [{ field: 'body', message: err.message, reference_sid: null }],
      });
    report.complete = false;
    refuse(report.received, `${err.message}; reading stopped here, the records before were processed`);
  }
  await flush();
  await inFlight;
  if (failed) {
    if (report.stored === 0 && report.duplicates === 0) throw failed.err;
    report.complete = false;
    const reason = failed.err instanceof Error ? failed.err.message : 'the records service failed';
    refuse(
      failed.position,
      `not stored: ${reason}; the ${failed.records} records of this batch and the rest of the body were not ` +
        'stored, the records before them were; send the rest again',
    );
    report.rejected += failed.records - 1;
  }
  report.errors = report.errors.sort((a, b) => a.position - b.position).slice(0, INGEST_MAX_ERRORS);
  report.ignored_fields = ignoredFieldsObject(ignored);
  return report;
}
