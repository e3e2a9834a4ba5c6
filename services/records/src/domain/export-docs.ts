import type {
  ExportCallbackAttempt,
  ExportCompression,
  ExportFormat,
  ExportKind,
  ExportStatus,
  Principal,
  RecordExport,
} from '@patchbay/contracts';
import type { StoredSecret } from '@patchbay/platform';
import { defineListSpec } from '@patchbay/query';

/** The completion callback as stored: what the API shows, the signing key and the delivery outbox's fields. */
export interface ExportCallbackDoc {
  url: string;
  event_id: string;
  /**
   * The HMAC key of the signature (shown to the partner once, at creation), sealed with RECORDS_CREDENTIALS_KEY
   * (secrets/callback-key.ts); a plain string when written by a version before keys were sealed.
   */
  key: StoredSecret;
  state: 'waiting' | 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  attempts: ExportCallbackAttempt[];
  date_delivered: Date | null;
  next_attempt_at: Date | null;
  lease_until: Date | null;
}

/**
 * An export as stored (`record_exports`): the API object's fields, plus what its job needs — the
 * caller it acts for (scopes as at creation; no token), the run's lease (who runs it, until when,
 * how many runs began), the upload in progress (so a run started again aborts it) and when a run
 * that failed for a passing reason may be tried again.
 */
export interface ExportDoc {
  export_sid: string;
  partner_sid: string;
  kind: ExportKind;
  status: ExportStatus;
  record_count: number;
  bytes: number;
  progress: number;
  file_sid: string | null;
  error: string | null;
  date_created: Date;
  date_completed: Date | null;
  filter: string | null;
  format: ExportFormat;
  compression: ExportCompression;
  container_sid: string;
  name: string;
  callback: ExportCallbackDoc | null;
  principal: Principal;
  lease_owner: string | null;
  lease_until: Date | null;
  runs: number;
  pending_file_sid: string | null;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** An export as the API returns it: internal fields and the callback's key left out. */
export function serializeExport(doc: ExportDoc): RecordExport {
  const cb = doc.callback;
  return {
    export_sid: doc.export_sid,
    partner_sid: doc.partner_sid,
    kind: doc.kind,
    status: doc.status,
    record_count: doc.record_count,
    bytes: doc.bytes,
    progress: doc.progress,
    file_sid: doc.file_sid,
    error: doc.error,
    date_created: new Date(doc.date_created).toISOString(),
    date_completed: iso(doc.date_completed),
    filter: doc.filter,
    format: doc.format,
    compression: doc.compression,
    container_sid: doc.container_sid,
    name: doc.name,
    callback: cb
      ? {
          url: cb.url,
          event_id: cb.event_id,
          state: cb.state,
          attempt_count: cb.attempt_count,
          attempts: cb.attempts,
          date_delivered: iso(cb.date_delivered),
        }
      : null,
  };
}

/** `<call|message>-records-<YYYYMMDDTHHMMSSZ>.<ndjson|csv>[.gz]`: the name of a file not named by the request. */
export function defaultExportName(
  kind: ExportKind,
  format: ExportFormat,
  compression: ExportCompression,
  now: Date,
): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${kind}-records-${stamp}.${format}${compression === 'gzip' ? '.gz' : ''}`;
}

/** The file's media type: what its bytes are (a gzip stream, or the text itself). */
export function exportMimeType(format: ExportFormat, compression: ExportCompression): string {
  if (compression === 'gzip') return 'application/gzip';
  return format === 'csv' ? 'text/csv' : 'application/x-ndjson';
}

/** `GET …/exports`: offset pagination, newest first by default. */
export const EXPORT_LIST_SPEC = defineListSpec({
  fields: {
    export_sid: 'uuid',
    kind: 'string',
    status: 'string',
    format: 'string',
    compression: 'string',
    container_sid: 'uuid',
    file_sid: 'uuid',
    name: 'string',
    record_count: 'integer',
    bytes: 'integer',
    progress: 'integer',
    date_created: 'date',
    date_completed: 'date',
  },
  selectable: ['callback', 'error', 'filter', 'partner_sid'],
  defaultOrder: { field: 'date_created', dir: 'desc' },
  sidField: 'export_sid',
});
