import { Type, type Static } from '@sinclair/typebox';
import { GatewayRequestSchema, PrincipalSchema } from '../gateway-request';
import { BlobStoreOpenReplySchema, BlobStoreOpenRequestSchema, ContainerSchema } from '../schemas/container';
import { AnyListEnvelopeSchema } from '../schemas/envelope';
import { FileSchema } from '../schemas/file';
import { EncryptionKeySchema } from '../schemas/encryption-key';
import {
  PlaybackOpenReplySchema,
  PlaybackOpenRequestSchema,
  PublishedCheckRequestSchema,
  RecordingPrepareRequestSchema,
} from '../schemas/media';
import { Subjects } from '../subjects';
import { UploadIdempotencySchema } from './idempotency';
import {
  SweepCandidatesReplySchema,
  SweepCandidatesRequestSchema,
  SweepContainersReplySchema,
  SweepContainersRequestSchema,
  SweepDeleteReplySchema,
  SweepDeleteRequestSchema,
  SweepExpiredReplySchema,
  SweepExpiredRequestSchema,
  SweepReleaseRequestSchema,
  UsageSnapshotReplySchema,
  UsageSnapshotRequestSchema,
} from './sweep';
import { ContainerUsageSchema } from '../schemas/container-usage';
import { CopyCacheRequests } from './copies';
import type { PayloadSpec, RequestSpec } from './message-spec';

/**
 * The storage service's bus messages: the `/storage` calls the gateway forwards (a GatewayRequest
 * each), the upload and download steps of the gateway's streaming routes, the public file
 * server's resolve, the media plane's, the blob routing's and the threshold-worker's requests
 * (messages/sweep.ts), and the file events storage publishes (the transcoder's reports are its
 * events: messages/transcoder.ts). Served by
 * services/storage; asked through clients/storage-client.ts.
 */

const Sid = Type.String({ minLength: 1, maxLength: 64 });
const BlobKey = Type.String({ minLength: 1, maxLength: 1024 });

/** `reserved`: the bytes came first (uploadReserve) under that file_sid, this many of them. */
export const UploadPrepareRequestSchema = Type.Object({
  principal: PrincipalSchema,
  /**
   * The File fields as given (JSON `file_object`, or query strings): storage checks them against FileUploadSchema (400
   * naming the field).
   */
  fields: Type.Record(Type.String(), Type.Unknown()),
  source: Type.Union([Type.Literal('json'), Type.Literal('query')]),
  reserved: Type.Optional(Type.Object({ file_sid: Sid, size: Type.Integer({ minimum: 0 }) })),
  /** The request's Idempotency-Key: a retry of an upload committed under it is not refused for its own file. */
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export type UploadPrepareRequest = Static<typeof UploadPrepareRequestSchema>;
/**
 * records → storage: the prepare of a record export's file (decisions §55). The File fields as an API upload's
 * JSON `file_object` (checked against FileUploadSchema); the container may be an external one, whose bytes go to
 * that storage with no space limits, as a recording's. `idempotency_key`: the export's upload key.
 */
export const ExportPrepareRequestSchema = Type.Object({
  principal: PrincipalSchema,
  fields: Type.Record(Type.String(), Type.Unknown()),
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export type ExportPrepareRequest = Static<typeof ExportPrepareRequestSchema>;
/** Where the bytes go, and how many the container still has room for. */
export const PreparedSchema = Type.Object({
  file_sid: Sid,
  blob_key: BlobKey,
  max_bytes: Type.Integer({ minimum: 0 }),
  /**
   * The container's public keys, when it has any: the bytes are to be streamed through an age
   * encrypter to all of them and never stored as they came (decisions §43).
   */
  encrypt_to: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 16384 }), { maxItems: 4 })),
});
export type Prepared = Static<typeof PreparedSchema>;
export const UploadReserveRequestSchema = Type.Object({ principal: PrincipalSchema });
export type UploadReserveRequest = Static<typeof UploadReserveRequestSchema>;
/** `head`: the first bytes (base64), for content sniffing. */
export const UploadCommitRequestSchema = Type.Object({
  principal: PrincipalSchema,
  file_sid: Sid,
  size: Type.Integer({ minimum: 0 }),
  head: Type.String(),
  /**
   * An encrypted upload (`encrypt_to` was given): `size` counts the stored age file, `head` is the
   * plaintext's; `file_key` (base64) lets storage have the plaintext probed and transcoded within
   * this request, in the transcoder's scratch, and is never stored (decisions §43).
   */
  encryption: Type.Optional(
    Type.Object({
      header_bytes: Type.Integer({ minimum: 0 }),
      plaintext_bytes: Type.Integer({ minimum: 0 }),
      file_key: Type.String({ minLength: 24, maxLength: 24 }),
    }),
  ),
  /**
   * The request's Idempotency-Key (the caller's): a commit of the same key and fingerprint returns the file
   * committed first (and removes these bytes); the same key with another fingerprint is a 422 naming it.
   */
  idempotency: Type.Optional(UploadIdempotencySchema),
});
export type UploadCommitRequest = Static<typeof UploadCommitRequestSchema>;
export const UploadAbortRequestSchema = Type.Object({ principal: PrincipalSchema, file_sid: Sid });
export type UploadAbortRequest = Static<typeof UploadAbortRequestSchema>;
export const UploadAbortReplySchema = Type.Object({ aborted: Type.Boolean() });

/** Download by SID (`GET /storage/files/:file_sid/data`): what to stream. */
export const OpenedSchema = Type.Object({
  blob_key: BlobKey,
  file_bytes: Type.Integer({ minimum: 0 }),
  mime_type: Type.String(),
  name: Type.String(),
  file_access_name: Type.String(),
});
export type Opened = Static<typeof OpenedSchema>;

/** The public file server's `/f/<id>`: a file_sid or a file_access_name. */
/** Unbounded: any path segment the file server was asked for (an unknown one is the same 404). */
export const ResolvePublicRequestSchema = Type.Object({ id: Type.String() });
export const PublicFileSchema = Type.Object({
  file_sid: Sid,
  blob_key: BlobKey,
  file_bytes: Type.Integer({ minimum: 0 }),
  mime_type: Type.String(),
  name: Type.String(),
  file_access_name: Type.String(),
  content_format: Type.Union([Type.String(), Type.Null()]),
  content_bitrate: Type.Union([Type.Number(), Type.Null()]),
  /** The stored bytes are an age file (decisions §43): served as they are, never transcoded on download. */
  encrypted: Type.Optional(Type.Boolean()),
  /** When the bytes last changed (ISO 8601): Last-Modified, and what If-Range is compared with. */
  last_modified: Type.String(),
  /** What storage sent before `last_modified`; read only during a rolling update. */
  date_modified: Type.Optional(Type.String()),
});
export type PublicFile = Static<typeof PublicFileSchema>;

/** `container_sid` as an endpoint was given it: an unknown one is a 404, whatever it looks like. */
export const ContainerCheckRequestSchema = Type.Object({ partner_sid: Sid, container_sid: Type.String() });
export const ContainerDefaultRequestSchema = Type.Object({ partner_sid: Sid });

const NoBody = Type.Null();

type StorageSubject = (typeof Subjects.storage)[keyof typeof Subjects.storage];

export const StorageRequests = {
  [Subjects.storage.containerCreate]: { request: GatewayRequestSchema, reply: ContainerSchema },
  [Subjects.storage.containerList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.storage.containerGet]: { request: GatewayRequestSchema, reply: Type.Partial(ContainerSchema) },
  [Subjects.storage.containerUpdate]: { request: GatewayRequestSchema, reply: ContainerSchema },
  [Subjects.storage.containerReplace]: { request: GatewayRequestSchema, reply: ContainerSchema },
  [Subjects.storage.containerDelete]: { request: GatewayRequestSchema, reply: NoBody },
  [Subjects.storage.containerCheck]: { request: ContainerCheckRequestSchema, reply: ContainerSchema },
  [Subjects.storage.containerDefault]: { request: ContainerDefaultRequestSchema, reply: ContainerSchema },
  [Subjects.storage.keyCreate]: { request: GatewayRequestSchema, reply: EncryptionKeySchema },
  [Subjects.storage.keyList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.storage.keyGet]: { request: GatewayRequestSchema, reply: Type.Partial(EncryptionKeySchema) },
  [Subjects.storage.keyUpdate]: { request: GatewayRequestSchema, reply: EncryptionKeySchema },
  [Subjects.storage.keyDelete]: { request: GatewayRequestSchema, reply: NoBody },
  [Subjects.storage.uploadPrepare]: { request: UploadPrepareRequestSchema, reply: PreparedSchema },
  [Subjects.storage.uploadCommit]: { request: UploadCommitRequestSchema, reply: FileSchema },
  [Subjects.storage.uploadAbort]: { request: UploadAbortRequestSchema, reply: UploadAbortReplySchema },
  [Subjects.storage.uploadReserve]: { request: UploadReserveRequestSchema, reply: PreparedSchema },
  [Subjects.storage.exportPrepare]: { request: ExportPrepareRequestSchema, reply: PreparedSchema },
  [Subjects.storage.fileList]: { request: GatewayRequestSchema, reply: AnyListEnvelopeSchema },
  [Subjects.storage.fileGet]: { request: GatewayRequestSchema, reply: Type.Partial(FileSchema) },
  [Subjects.storage.fileUpdate]: { request: GatewayRequestSchema, reply: FileSchema },
  [Subjects.storage.fileReplace]: { request: GatewayRequestSchema, reply: FileSchema },
  [Subjects.storage.fileDelete]: { request: GatewayRequestSchema, reply: NoBody },
  [Subjects.storage.fileOpen]: { request: GatewayRequestSchema, reply: OpenedSchema },
  [Subjects.storage.fileResolvePublic]: { request: ResolvePublicRequestSchema, reply: PublicFileSchema },
  [Subjects.storage.recordingPrepare]: { request: RecordingPrepareRequestSchema, reply: PreparedSchema },
  [Subjects.storage.blobStoreOpen]: { request: BlobStoreOpenRequestSchema, reply: BlobStoreOpenReplySchema },
  [Subjects.storage.playbackOpen]: { request: PlaybackOpenRequestSchema, reply: PlaybackOpenReplySchema },
  [Subjects.storage.publishedCheck]: { request: PublishedCheckRequestSchema, reply: Type.Object({ file_sid: Sid }) },
  [Subjects.storage.sweepContainers]: { request: SweepContainersRequestSchema, reply: SweepContainersReplySchema },
  [Subjects.storage.sweepCandidates]: { request: SweepCandidatesRequestSchema, reply: SweepCandidatesReplySchema },
  [Subjects.storage.sweepDelete]: { request: SweepDeleteRequestSchema, reply: SweepDeleteReplySchema },
  [Subjects.storage.sweepRelease]: {
    request: SweepReleaseRequestSchema,
    reply: Type.Object({ released: Type.Boolean() }),
  },
  [Subjects.storage.sweepExpired]: { request: SweepExpiredRequestSchema, reply: SweepExpiredReplySchema },
  [Subjects.storage.usageSnapshot]: { request: UsageSnapshotRequestSchema, reply: UsageSnapshotReplySchema },
  [Subjects.storage.containerUsage]: { request: GatewayRequestSchema, reply: ContainerUsageSchema },
  ...CopyCacheRequests,
} as const satisfies Record<Exclude<StorageSubject, typeof Subjects.storage.probeJob>, RequestSpec>;

/**
 * `evt.file.created|updated|deleted`: which file (and whose). Consumers rely on `file_sid` alone
 * (the file server forgets what it cached for it), so that is all that is checked.
 */
export const FileEventSchema = Type.Object({ file_sid: Sid, partner_sid: Type.Optional(Type.String()) });
export type FileEvent = Static<typeof FileEventSchema>;

export const StorageEvents = {
  [Subjects.events.fileCreated]: { payload: FileEventSchema },
  [Subjects.events.fileUpdated]: { payload: FileEventSchema },
  [Subjects.events.fileDeleted]: { payload: FileEventSchema },
} as const satisfies Record<string, PayloadSpec>;

/**
 * A media file to describe from a probe (decisions §49): enqueued before the file is recorded, so a commit that dies
 * leaves a job that finds no file; not run before `not_before` (ISO 8601), by when the commit's own probe has answered
 * or given up.
 */
export const MediaProbeJobSchema = Type.Object({ file_sid: Sid, not_before: Type.String({ format: 'date-time' }) });
export type MediaProbeJob = Static<typeof MediaProbeJobSchema>;

export const StorageJobs = {
  [Subjects.storage.probeJob]: { payload: MediaProbeJobSchema },
} as const satisfies Record<string, PayloadSpec>;
