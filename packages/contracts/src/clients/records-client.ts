import type { RecordIngestBatch, RecordIngestBatchResult } from '../messages/records';
import { unwrapReply } from '../reply';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';

/** The two ingest subjects: one per kind of detail record. */
export type RecordIngestSubject = typeof Subjects.records.callIngest | typeof Subjects.records.messageIngest;

export function isRecordIngestSubject(subject: string | undefined): subject is RecordIngestSubject {
  return subject === Subjects.records.callIngest || subject === Subjects.records.messageIngest;
}

/** The records requests the gateway's ingest route makes, typed (messages/records.ts). */
export class RecordsClient {
  constructor(
    private readonly bus: BusRequester,
    private readonly defaults: CallOptions = {},
  ) {}

  /** Stores one batch of the kind `subject` names; the report of that batch. */
  async ingest(
    subject: RecordIngestSubject,
    batch: RecordIngestBatch,
    opts?: CallOptions,
  ): Promise<RecordIngestBatchResult> {
    return unwrapReply<RecordIngestBatchResult>(await this.bus.request(subject, batch, { ...this.defaults, ...opts }));
  }
}
