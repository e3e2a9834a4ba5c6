import { Queues, Subjects, TranscoderEvents, isTranscodingOf } from '@patchbay/contracts';
import { checkedEvent, createLogger, type BlobStore, type Bus } from '@patchbay/platform';

/** What the transcoder reports when an upload-time job ends (its done or failed event). */
export interface DoneReport {
  file_sid: string;
  source_blob_key: string;
  failed?: string;
  blob_key?: string;
  file_bytes?: number;
  content_format?: string;
  content_duration?: number | null;
  content_bitrate?: number | null;
}

/**
 * Storage's side of the events an upload-time job reports, as storage decides it: a result is
 * swapped in only while the file still has the source the job read (`source_blob_key`), otherwise
 * it is removed. Every report is kept, and a test can wait for a file's first one.
 */
export async function storageStandIn(bus: Bus, blobKeys: Map<string, string>, blobs: BlobStore) {
  const reports: DoneReport[] = [];
  const waiters = new Map<string, Array<(r: DoneReport) => void>>();
  const log = createLogger({ name: 'storage-stand-in', level: 'silent' });
  const keep = (r: DoneReport) => {
    reports.push(r);
    for (const w of waiters.get(r.file_sid) ?? []) w(r);
    waiters.delete(r.file_sid);
  };
  const done = Subjects.events.fileTranscodingDone;
  const failed = Subjects.events.fileTranscodingFailed;
  await bus.subscribe(
    done,
    Queues.storage,
    checkedEvent(done, TranscoderEvents[done].payload, log, async (r) => {
      if (blobKeys.get(r.file_sid) === r.source_blob_key) blobKeys.set(r.file_sid, r.blob_key);
      else if (isTranscodingOf(r.blob_key, r.source_blob_key)) await blobs.delete(r.blob_key);
      keep(r);
    }),
  );
  await bus.subscribe(
    failed,
    Queues.storage,
    checkedEvent(failed, TranscoderEvents[failed].payload, log, async (r) => {
      keep({ file_sid: r.file_sid, source_blob_key: r.source_blob_key, failed: r.reason });
    }),
  );
  return {
    reports,
    /** The first report about `fileSid` from now on. */
    next: (fileSid: string) =>
      new Promise<DoneReport>((resolve) => {
        waiters.set(fileSid, [...(waiters.get(fileSid) ?? []), resolve]);
      }),
  };
}
