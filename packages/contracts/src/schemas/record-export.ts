import { Type, type Static } from '@sinclair/typebox';
import { Literals } from './schema-helpers';

/*
 * Bulk exports of detail records (docs/interface-notes.md, "Record exports"; decisions §55):
 * `POST /calls/call_drs/exports` and `POST /sms/message_drs/exports` write every record a list filter
 * matches, in listing order (`date_stop`, then `dr_sid`), into one ordinary file of a container.
 */

export const EXPORT_KINDS = ['call', 'message'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_COMPRESSIONS = ['gzip', 'none'] as const;
export type ExportCompression = (typeof EXPORT_COMPRESSIONS)[number];
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** The states an export never leaves. */
export const EXPORT_FINAL_STATUSES: readonly ExportStatus[] = ['done', 'failed', 'cancelled'];

/** The body of `POST …/exports`. */
export const RecordExportCreateSchema = Type.Object(
  {
    /** The list filter grammar (the list's `filter` parameter); absent or empty: every record. */
    filter: Type.Optional(Type.String({ maxLength: 4096 })),
    format: Type.Optional(Literals(EXPORT_FORMATS)),
    compression: Type.Optional(Literals(EXPORT_COMPRESSIONS)),
    /** The container the file is written into; absent: the partner's default container. */
    container_sid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** The file's name; absent: `<kind>-records-<date>.<ndjson|csv>[.gz]`. */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    /** Called once (a signed POST, retried until a 2xx) when the export is done or has failed. */
    callback_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  },
  { additionalProperties: false, $id: 'RecordExportCreate' },
);
export type RecordExportCreate = Static<typeof RecordExportCreateSchema>;

/** One attempt at delivering the completion callback. */
export const ExportCallbackAttemptSchema = Type.Object({
  date: Type.String({ format: 'date-time' }),
  outcome: Literals(['delivered', 'failed', 'refused'] as const),
  /** The receiver's HTTP status, when it answered. */
  status: Type.Union([Type.Integer(), Type.Null()]),
  /** Why it did not count as delivered (null when delivered). */
  reason: Type.Union([Type.String(), Type.Null()]),
});
export type ExportCallbackAttempt = Static<typeof ExportCallbackAttemptSchema>;

/** The completion callback of an export with `callback_url`: its event id and its delivery attempts. */
export const ExportCallbackSchema = Type.Object({
  url: Type.String(),
  /** The same in every attempt (`X-Patchbay-Event-Id` and the body's `event_id`): receivers drop repeats by it. */
  event_id: Type.String(),
  /** `waiting` until the export ends; then `pending` until a 2xx (`delivered`) or given up (`failed`). */
  state: Literals(['waiting', 'pending', 'delivered', 'failed'] as const),
  attempt_count: Type.Integer({ minimum: 0 }),
  /** The most recent attempts, oldest first (at most 20). */
  attempts: Type.Array(ExportCallbackAttemptSchema),
  date_delivered: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type ExportCallback = Static<typeof ExportCallbackSchema>;

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

/** An export as the API returns it. */
export const RecordExportSchema = Type.Object(
  {
    export_sid: Type.String(),
    partner_sid: Type.String(),
    kind: Literals(EXPORT_KINDS),
    status: Literals(EXPORT_STATUSES),
    /** Records written so far (all of them once `done`). */
    record_count: Type.Integer({ minimum: 0 }),
    /** Bytes of the stored file (as stored: compressed, encrypted) once `done`; bytes written so far before. */
    bytes: Type.Integer({ minimum: 0 }),
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    file_sid: Nullable(Type.String()),
    error: Nullable(Type.String()),
    date_created: Type.String({ format: 'date-time' }),
    date_completed: Nullable(Type.String({ format: 'date-time' })),
    filter: Nullable(Type.String()),
    format: Literals(EXPORT_FORMATS),
    compression: Literals(EXPORT_COMPRESSIONS),
    container_sid: Type.String(),
    name: Type.String(),
    callback: Type.Union([ExportCallbackSchema, Type.Null()]),
  },
  { $id: 'RecordExport' },
);
export type RecordExport = Static<typeof RecordExportSchema>;

/**
 * The 202 answer of `POST …/exports`: the export, and — when `callback_url` was given — the key its
 * callback is signed with (HMAC-SHA256, `X-Patchbay-Signature`), shown this once.
 */
export const RecordExportCreatedSchema = Type.Composite(
  [RecordExportSchema, Type.Object({ callback_signing_key: Type.Optional(Type.String()) })],
  { $id: 'RecordExportCreated' },
);
export type RecordExportCreated = Static<typeof RecordExportCreatedSchema>;
