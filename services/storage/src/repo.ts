import type { Collection, DocStore } from '@patchbay/platform';
import type { Classification } from '@patchbay/contracts';
import type { ContainerSettings } from './domain/container-rules';

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
}

export interface FileDoc extends Record<string, unknown> {
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
  publish: 'no' | 'file_access_name' | 'file_sid';
  threshold_include: boolean;
  lifecycle_action: 'no_action' | 'delete';
  lifecycle_ttl: number;
  unique: boolean;
  unique_key?: string;
  parent_file_sid: string | null;
  integer_key_1: number | null;
  integer_key_2: number | null;
  string_key_1: string | null;
  string_key_2: string | null;
  string_key_3: string | null;
  string_key_4: string | null;
  date_created: Date;
  date_modified: Date;
  date_last_accessed: Date;
  /**
   * When the bytes last changed (upload, upload-time transcoding): the file server's Last-Modified.
   * Not `date_modified`, which a rename or a publish change moves too. Absent on older records.
   */
  date_content_modified?: Date;
  /** Upload time + lifecycle_ttl, when lifecycle_action is delete (for the expiry sweep). */
  expires_at?: Date;
  /** Set when the stored bytes are an age file (never changes: a rotation leaves older files as they are). */
  encryption?: FileEncryptionDoc | null;
  /** A Voicemail recording's callback the endpoint service has not taken yet (callbacks.ts). */
  callback_pending?: Record<string, unknown>;
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
  type: 'aws_s3' | 'gcp_storage' | 'azure_blob';
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

export interface StorageRepo {
  containers: Collection<ContainerDoc>;
  encryptionKeys: Collection<EncryptionKeyDoc>;
  files: Collection<FileDoc>;
  uploads: Collection<UploadDoc>;
  limits: Collection<PartnerLimitDoc>;
  blobStores: Collection<BlobStoreDoc>;
  blobDeletions: Collection<BlobDeletionDoc>;
  copies: Collection<CopyDoc>;
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
  size: number;
  last_used: Date;
  /** A reader said it reads the copy until then: not evicted before. */
  in_use_until: Date;
}

/** An object of a deleted file that its external storage did not let us delete yet: retried by the sweep. */
export interface BlobDeletionDoc extends Record<string, unknown> {
  blob_key: string;
  date_created: Date;
  attempts: number;
}

export async function openStorageRepo(docs: DocStore): Promise<StorageRepo> {
  const repo: StorageRepo = {
    containers: docs.collection<ContainerDoc>('containers'),
    encryptionKeys: docs.collection<EncryptionKeyDoc>('encryption_keys'),
    files: docs.collection<FileDoc>('files'),
    uploads: docs.collection<UploadDoc>('uploads'),
    limits: docs.collection<PartnerLimitDoc>('partner_limits'),
    blobStores: docs.collection<BlobStoreDoc>('blob_stores'),
    blobDeletions: docs.collection<BlobDeletionDoc>('blob_deletions'),
    copies: docs.collection<CopyDoc>('transcoded_copies'),
  };
  await repo.copies.createIndex({ key: 1 }, { unique: true });
  await repo.copies.createIndex({ file_sid: 1 });
  await repo.copies.createIndex({ state: 1, last_used: 1 });
  await repo.blobDeletions.createIndex({ blob_key: 1 }, { unique: true });
  await repo.blobStores.createIndex({ store_id: 1 }, { unique: true });
  await repo.encryptionKeys.createIndex({ encryption_key_sid: 1 }, { unique: true });
  await repo.encryptionKeys.createIndex({ partner_sid: 1, date_created: 1 });
  await repo.containers.createIndex({ encryption_key_sids: 1 });
  await repo.containers.createIndex({ container_sid: 1 }, { unique: true });
  await repo.containers.createIndex({ partner_sid: 1, date_created: 1 });
  await repo.containers.createIndex({ default_for: 1 }, { unique: true, sparse: true });
  await repo.containers.createIndex({ unique_key: 1 }, { unique: true, sparse: true });
  await repo.files.createIndex({ file_sid: 1 }, { unique: true });
  await repo.files.createIndex({ file_access_name: 1 }, { unique: true });
  await repo.files.createIndex({ unique_key: 1 }, { unique: true, sparse: true });
  await repo.files.createIndex({ container_sid: 1, date_last_accessed: 1 });
  await repo.files.createIndex({ partner_sid: 1, date_created: 1 });
  await repo.files.createIndex({ expires_at: 1 }, { sparse: true });
  await repo.files.createIndex({ callback_pending: 1 }, { sparse: true });
  await repo.uploads.createIndex({ file_sid: 1 }, { unique: true });
  await repo.limits.createIndex({ partner_sid: 1 }, { unique: true });
  return repo;
}
