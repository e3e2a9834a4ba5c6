import { Queues, Subjects } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';

/** What the transcoder reports to storage when an upload-time job ends. */
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
 * Storage's side of the two subjects an upload-time job reports on, as storage decides it: a
 * result is swapped in only while the file still has the source the job read (`source_blob_key`),
 * otherwise it is ignored. Every report is kept, and a test can wait for a file's first one.
 */
export async function storageStandIn(bus: Bus, blobKeys: Map<string, string>) {
  const reports: DoneReport[] = [];
  const waiters = new Map<string, Array<(r: DoneReport) => void>>();
  await bus.serve(Subjects.storage.transcodingProgress, Queues.storage, async () => ({ status: 200, body: { ok: true } }));
  await bus.serve(Subjects.storage.transcodingDone, Queues.storage, async (payload) => {
    const r = payload as DoneReport;
    reports.push(r);
    for (const w of waiters.get(r.file_sid) ?? []) w(r);
    waiters.delete(r.file_sid);
    if (blobKeys.get(r.file_sid) !== r.source_blob_key) return { status: 200, body: { ignored: true } };
    if (r.blob_key) blobKeys.set(r.file_sid, r.blob_key);
    return { status: 200, body: { ok: true } };
  });
  return {
    reports,
    /** The first report about `fileSid` from now on. */
    next: (fileSid: string) => new Promise<DoneReport>((resolve) => { waiters.set(fileSid, [...(waiters.get(fileSid) ?? []), resolve]); }),
  };
}
