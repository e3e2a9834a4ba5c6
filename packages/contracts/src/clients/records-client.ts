import { RecordsRequests, type RecordIngestBatch, type RecordIngestBatchResult } from '../messages/records';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';
import { TableCaller } from './table-caller';

/** The two ingest subjects: one per kind of detail record. */
export type RecordIngestSubject = typeof Subjects.records.callIngest | typeof Subjects.records.messageIngest;

export function isRecordIngestSubject(subject: string | undefined): subject is RecordIngestSubject {
  return subject === Subjects.records.callIngest || subject === Subjects.records.messageIngest;
}

/** The records requests the gateway's ingest route makes, typed by RecordsRequests (messages/records.ts). */
export class RecordsClient {
  private readonly caller: TableCaller<typeof RecordsRequests>;

  constructor(bus: BusRequester, defaults: CallOptions = {}) {
    this.caller = new TableCaller(bus, RecordsRequests, defaults);
  }

  /** Stores one batch of the kind `subject` names; the report of that batch. */
  ingest(subject: RecordIngestSubject, batch: RecordIngestBatch, opts?: CallOptions): Promise<RecordIngestBatchResult> {
    return this.caller.call(subject, batch, opts);
  }
}
