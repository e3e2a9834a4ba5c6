import { createHash } from 'node:crypto';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { encryptStream } from '@patchbay/age';
import {
  unwrapReply,
  type StoredFile,
  type Prepared,
  type Principal,
  type StorageClient,
  type UploadCommitRequest,
} from '@patchbay/contracts';
import type { BlobStore, Collection } from '@patchbay/platform';
import { andFilters, compileFilterString, type StoreFilter } from '@patchbay/query';
import { exportMimeType, type ExportDoc } from '../domain/export-docs';
import { exportEncoding } from '../domain/export-lines';
import type { RecordDoc } from '../domain/record-docs';
import type { RecordKind } from '../domain/record-kinds';
import { ExportTap } from './export-tap';
import { recordBatches } from './record-batches';

/** How long storage keeps the export's upload key (a run started again finds the file a run before committed). */
const KEY_DAYS = 30;
/**
 * gzip level 4: about twice the speed of the default 6 on record lines, for files a few percent
 * larger; an export of a million records is then bound by reading the store, not by compressing.
 */
const GZIP_LEVEL = 4;

/** What a run of an export reports as it goes; it rejects to stop the run (the export was cancelled, or taken over). */
export type Heartbeat = (
  progress: { record_count: number; bytes: number; progress: number },
  /** The last one: every record is written (a heartbeat may skip the others). */
  final?: boolean,
) => Promise<void>;

export interface ExportWriteDeps {
  storage: StorageClient;
  blobs: BlobStore;
  /** The records of the export's kind. */
  records: Collection<RecordDoc>;
  kind: RecordKind;
  /** Commit may take longer than other calls (an encrypted file is read back within it). */
  commitTimeoutMs: number;
}

/** The store filter of an export: the partner's records the filter selects. The filter was checked at creation. */
export function exportFilter(kind: RecordKind, partnerSid: string, filter: string | null): StoreFilter {
  return andFilters({ partner_sid: partnerSid }, filter ? compileFilterString(filter, kind.spec) : {});
}

/**
 * The upload key of an export's file: a run started again after a crash commits under the same key,
 * so storage answers with the file a run before committed instead of recording a second one.
 */
export function exportUploadKey(exportSid: string): { key: string; fingerprint: string } {
  const key = `patchbay-record-export-${exportSid}`;
  return { key, fingerprint: createHash('sha256').update(key).digest('hex') };
}

/**
 * One run of an export, start to end: storage prepares the upload (container, quota, encryption),
 * the records stream in the listing's order — a batch at a time, serialized as the list does,
 * encoded, gzipped, counted against the room left, encrypted when the container has keys — into
 * the container's blob store (an external container's storage through blob routing, with no room
 * limit), and storage commits the file. `recordPending` keeps the upload's SID before a
 * byte moves, so a run started after this one died aborts it. Anything failing aborts the upload:
 * no file, no blob.
 */
export async function writeExport(
  deps: ExportWriteDeps,
  doc: ExportDoc,
  recordPending: (fileSid: string) => Promise<void>,
  beat: Heartbeat,
): Promise<StoredFile> {
  const { storage, kind } = deps;
  const principal = doc.principal;
  const { key, fingerprint } = exportUploadKey(doc.export_sid);
  if (doc.pending_file_sid) await storage.abort(principal, doc.pending_file_sid).catch(() => undefined);
  // Storage's prepare for exports: an external container is a target too (its bytes go there, no space limits).
  const prepared = await storage.exportPrepare({
    principal,
    fields: {
      container_sid: doc.container_sid,
      name: doc.name,
      mime_type: exportMimeType(doc.format, doc.compression),
    },
    idempotency_key: key,
  });
  try {
    await recordPending(prepared.file_sid);
    const matching = exportFilter(kind, doc.partner_sid, doc.filter);
    const total = await deps.records.countDocuments(matching);
    const streamed = await streamRecords(deps, doc, prepared, matching, total, beat);
    const expires = new Date(Date.now() + KEY_DAYS * 86_400_000).toISOString();
    const commit: UploadCommitRequest = {
      principal,
      file_sid: prepared.file_sid,
      size: streamed.size,
      head: streamed.head.toString('base64'),
      ...(streamed.encryption ? { encryption: streamed.encryption } : {}),
      idempotency: { key, fingerprint, expires_at: expires },
    };
    return unwrapReply<StoredFile>(await storage.commit(commit, { timeoutMs: deps.commitTimeoutMs }));
  } catch (err) {
    await abortQuietly(storage, principal, prepared.file_sid);
    throw err;
  }
}

async function abortQuietly(storage: StorageClient, principal: Principal, fileSid: string): Promise<void> {
  // A failed abort leaves a pending upload that storage's stale-upload sweep removes (UPLOAD_STALE_MS).
  await storage.abort(principal, fileSid).catch(() => undefined);
}

interface Streamed {
  size: number;
  head: Buffer;
  encryption?: UploadCommitRequest['encryption'];
}

async function streamRecords(
  deps: ExportWriteDeps,
  doc: ExportDoc,
  prepared: Prepared,
  matching: StoreFilter,
  total: number,
  beat: Heartbeat,
): Promise<Streamed> {
  const encoding = exportEncoding(doc.format, deps.kind.fields);
  const tap = new ExportTap(prepared.max_bytes);
  let count = 0;
  async function* lines(): AsyncGenerator<Buffer> {
    if (encoding.head) yield Buffer.from(encoding.head);
    for await (const batch of recordBatches(deps.kind, deps.records, matching)) {
      let text = '';
      for (const record of batch) text += encoding.line(record);
      count += batch.length;
      yield Buffer.from(text);
      const progress = total > 0 ? Math.min(99, Math.floor((count * 100) / total)) : 99;
      await beat({ record_count: count, bytes: tap.size, progress });
    }
  }
  const stages: Transform[] = [];
  if (doc.compression === 'gzip') stages.push(createGzip({ level: GZIP_LEVEL }));
  stages.push(tap);
  const enc = prepared.encrypt_to?.length ? encryptStream(prepared.encrypt_to) : null;
  if (enc) stages.push(enc);
  const stored = stages[stages.length - 1];
  const source = Readable.from(lines(), { objectMode: false });
  await Promise.all([
    pipeline([source, ...stages]).catch((err: unknown) => {
      stored.destroy(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }),
    deps.blobs.put(prepared.blob_key, stored),
  ]);
  await beat({ record_count: count, bytes: tap.size, progress: 99 }, true);
  if (!enc) return { size: tap.size, head: tap.head() };
  const summary = enc.summary;
  if (!summary) throw new Error('the age encrypter ended without a summary'); // unreachable after the pipeline
  return {
    size: summary.file_bytes,
    head: tap.head(),
    encryption: {
      header_bytes: summary.header_bytes,
      plaintext_bytes: summary.plaintext_bytes,
      file_key: enc.fileKey.toString('base64'),
    },
  };
}
