import type {
  Classification,
  ContainerType,
  ExternalStoreType,
  KeyValues,
  LIFECYCLE_ACTIONS,
  PUBLISH_VALUES,
  THRESHOLD_ACTIONS,
  VoicemailCallbackSchedule,
} from '@patchbay/contracts';
import type { RecordingOrigin } from './recording-origin';

/**
 * What storage keeps, collection by collection (repo.ts opens the collections and their indexes):
 * plain shapes, so the rules, serializers and builders of domain/ read them without the store.
 */

export type PublishSetting = (typeof PUBLISH_VALUES)[number];
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];
export type ThresholdAction = (typeof THRESHOLD_ACTIONS)[number];

/**
 * A container's writable settings, as stored (the defaults: CONTAINER_DEFAULTS in container-rules.ts),
 * its key fields among them (contracts' key-fields.ts). A type, not an interface: it is read and
 * written as a plain record (changedFields, $set).
 */
export type ContainerSettings = KeyValues & {
  allow_publish: boolean;
  allowed_classifications: Classification[];
  blocked_classifications: Classification[];
  default_file_lifecycle_action: LifecycleAction;
  default_file_lifecycle_ttl: number;
  default_file_publish: PublishSetting;
  default_file_threshold_include: boolean;
  default_file_unique: boolean;
  encryption_key_sids: string[];
  name: string;
  quota_bytes: number;
  quota_files: number;
  threshold_action: ThresholdAction;
  threshold_bytes: number | null;
  threshold_bytes_target: number | null;
  threshold_files: number | null;
  threshold_files_target: number | null;
  threshold_grace_period: number;
  type: ContainerType;
  /** External containers: where the blobs are, credentials sealed (external-stores.ts); null on internal ones. */
  external_attributes: Record<string, unknown> | null;
  unique: boolean;
};

export interface ContainerDoc extends ContainerSettings, Record<string, unknown> {
  container_sid: string;
  partner_sid: string;
  is_default: boolean;
  /** Present (= partner_sid) only on the default container: a sparse unique index keeps it single. */
  default_for?: string;
  /** Present only on unique containers: the partner's key set, sparse unique. */
  unique_key?: string;
  total_files: number;
  total_bytes: number;
  threshold_total_files: number;
  threshold_total_bytes: number;
  /** When a threshold was first reached (grace period start); null while under it. */
  threshold_exceeded_at: Date | null;
  date_created: Date;
  date_modified: Date;
  /** External containers: the store new blobs go to (BlobStoreDoc), and how many locations it has had. */
  external_store_id?: string;
  external_store_seq?: number;
  /** delete_lru containers: a sweep unfinished, and who holds its lease until when (sweep-rules.ts). */
  sweep_pending?: boolean | null;
  sweep_owner?: string | null;
  sweep_lease_until?: Date | null;
}

/** A file, its key fields among its fields (contracts' key-fields.ts). */
export interface FileDoc extends Record<string, unknown>, KeyValues {
  file_sid: string;
  partner_sid: string;
  container_sid: string;
  blob_key: string;
  name: string;
  mime_type: string;
  type: 'file' | 'audio';
  content_classification: Classification;
  content_format: string | null;
  content_duration: number | null;
  /** Bits per second from ffprobe (not an API field: download-time `br` compares against it). */
  content_bitrate?: number | null;
  content_transcoding_progress: number | null;
  desired_format: string | null;
  desired_bitrate: number | null;
  file_access_name: string;
  file_bytes: number;
  publish: PublishSetting;
  threshold_include: boolean;
  lifecycle_action: LifecycleAction;
  lifecycle_ttl: number;
  unique: boolean;
  unique_key?: string;
  parent_file_sid: string | null;
  date_created: Date;
  date_modified: Date;
  date_last_accessed: Date;
  /**
   * When the bytes last changed (upload, upload-time transcoding): the file server's Last-Modified.
   * Not `date_modified`, which a rename or a publish change moves too. Absent on older records.
   */
  date_content_modified?: Date;
  /** Upload time + lifecycle_ttl, when lifecycle_action is delete (for lifecycle expiry, operations/file-expiry.ts). */
  expires_at?: Date;
  /** Set when the stored bytes are an age file (never changes: a rotation leaves older files as they are). */
  encryption?: FileEncryptionDoc | null;
  /** A Voicemail recording's callback the endpoint service has not taken yet (operations/voicemail-callbacks.ts). */
  callback_pending?: VoicemailCallbackSchedule;
  /** Set when a probe showed the stored bytes are not decodable media: its duration stays null, nothing retries it. */
  media_probe?: 'not_media';
  /**
   * The upload's Idempotency-Key, scoped to the partner that sent it (operations/upload-idempotency.ts), the
   * fingerprint of its request, and until when a commit with that key returns this file; unset after that.
   */
  idempotency_key?: string;
  idempotency_fingerprint?: string;
  idempotency_expires_at?: Date;
}

/** An upload's fields after defaults, as kept between prepare and commit. */
export interface UploadFields extends KeyValues {
  name: string;
  given_name: boolean;
  mime_type: string | null;
  type: 'file' | 'audio';
  content_classification: Classification | null;
  desired_format: string | null;
  desired_bitrate: number | null;
  publish: PublishSetting;
  threshold_include: boolean;
  lifecycle_action: LifecycleAction;
  lifecycle_ttl: number;
  unique: boolean;
  file_access_name: string | null;
}

/** An upload between prepare and commit: its blob may exist without a File. Swept when stale. */
export interface UploadDoc extends Record<string, unknown> {
  file_sid: string;
  partner_sid: string;
  /** Empty while `reserved`: the bytes came first, the fields (and so the container) are not known yet. */
  container_sid: string;
  blob_key: string;
  date_created: Date;
  reserved?: boolean;
  /** The File fields after defaults; absent while `reserved`. */
  fields?: UploadFields;
  /** A recording streaming in (media plane): what its commit and callback need. */
  recording?: RecordingOrigin;
  /** The container's keys at prepare: the bytes were to be encrypted to these (decisions §43). */
  encryption_key_sids?: string[];
  /**
   * Set by the commit that claimed the upload: from then on only that commit records or discards it,
   * and an abort (a gateway that gave up waiting for the commit's answer) leaves it alone.
   */
  committing_since?: Date;
}

/**
 * Where blobs of an external container are (decisions §29): one record per container and location
 * (type, endpoint, bucket or container, prefix, region). Blob keys `ext/<store_id>/…` name it, so a
 * file stays readable after its container moves elsewhere; credentials of the same location are
 * updated in place (a rotation reaches old files too). Credentials sealed (decisions §28).
 */
export interface BlobStoreDoc extends Record<string, unknown> {
  store_id: string;
  container_sid: string;
  partner_sid: string;
  type: ExternalStoreType;
  /** The attributes without credentials. */
  location: Record<string, string>;
  /** Each credential field sealed; null when the store takes none. */
  credentials: Record<string, unknown> | null;
  date_created: Date;
  date_modified: Date;
}

/** Per-partner counter that makes the container limit hold under concurrency. */
export interface PartnerLimitDoc extends Record<string, unknown> {
  partner_sid: string;
  containers: number;
}

/** A partner's public key (docs/interface-notes.md §20): public material only. */
export interface EncryptionKeyDoc extends Record<string, unknown> {
  encryption_key_sid: string;
  partner_sid: string;
  name: string;
  key_type: 'age-x25519' | 'ssh-rsa';
  public_key: string;
  fingerprint: string;
  date_created: Date;
}

/** How a file's stored bytes are encrypted (absent or null: stored as uploaded). */
export interface FileEncryptionDoc {
  format: 'age-v1';
  encryption_key_sids: string[];
  header_bytes: number;
  plaintext_bytes: number;
}

/**
 * A download-time transcoded copy (`cache/<file_sid>/…`; copy-cache.ts): being made under a lease,
 * stored (counted against TRANSCODE_CACHE_BYTES), or being evicted. `token` changes with every
 * change of state: the compare-and-set every change goes through.
 */
export interface CopyDoc extends Record<string, unknown> {
  key: string;
  file_sid: string;
  state: 'making' | 'ready' | 'evicting';
  token: string;
  /** While making or evicting: the holder is taken for dead after this. */
  lease_until: Date | null;
  /** While making: the maker's subject where the copy can be joined as it is made (decisions §53). */
  live?: string | null;
  size: number;
  last_used: Date;
  /** A reader said it reads the copy until then: not evicted before. */
  in_use_until: Date;
}

/** An object of a deleted file that its external storage did not let us delete yet: retried by maintenance. */
export interface BlobDeletionDoc extends Record<string, unknown> {
  blob_key: string;
  date_created: Date;
  attempts: number;
}

/**
 * A media probe still to be done (the all-in-one's durable probe queue, probes/store-probe-queue.ts): written before
 * the file is recorded, removed once its probe answered or showed the file is not media.
 */
export interface PendingProbeDoc extends Record<string, unknown> {
  file_sid: string;
  /** Probes tried for it so far. */
  attempts: number;
  /** Not tried again before this. */
  due_at: Date;
  /** Why the last attempt failed (for the operator; never a partner's data). */
  last_error?: string;
}

/** One container's counters on one UTC day (operations/container-usage.ts); rewritten by each tick of that day. */
export interface ContainerUsageDoc extends Record<string, unknown> {
  container_sid: string;
  partner_sid: string;
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  files: number;
  bytes: number;
  date_modified: Date;
}
