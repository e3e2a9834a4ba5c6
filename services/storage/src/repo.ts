import type { Collection, DocStore } from '@patchbay/platform';
import type {
  BlobDeletionDoc,
  BlobStoreDoc,
  ContainerDoc,
  ContainerUsageDoc,
  CopyDoc,
  EncryptionKeyDoc,
  FileDoc,
  PartnerLimitDoc,
  PendingProbeDoc,
  UploadDoc,
} from './domain/documents';

/** Storage's collections (their documents: domain/documents.ts). */
export interface StorageRepo {
  containers: Collection<ContainerDoc>;
  encryptionKeys: Collection<EncryptionKeyDoc>;
  files: Collection<FileDoc>;
  uploads: Collection<UploadDoc>;
  limits: Collection<PartnerLimitDoc>;
  blobStores: Collection<BlobStoreDoc>;
  blobDeletions: Collection<BlobDeletionDoc>;
  copies: Collection<CopyDoc>;
  /** The all-in-one's durable probe queue (probes/store-probe-queue.ts). */
  pendingProbes: Collection<PendingProbeDoc>;
  /** Daily usage snapshots of the containers (operations/container-usage.ts). */
  containerUsage: Collection<ContainerUsageDoc>;
}

/** Opens the collections and makes their indexes (idempotent, at start). */
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
    pendingProbes: docs.collection<PendingProbeDoc>('pending_probes'),
    containerUsage: docs.collection<ContainerUsageDoc>('container_usage'),
  };
  await repo.containerUsage.createIndex({ container_sid: 1, date: 1 }, { unique: true });
  await repo.pendingProbes.createIndex({ file_sid: 1 }, { unique: true });
  await repo.pendingProbes.createIndex({ due_at: 1 });
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
  await repo.files.createIndex({ idempotency_key: 1 }, { unique: true, sparse: true });
  await repo.files.createIndex({ idempotency_expires_at: 1 }, { sparse: true });
  await repo.uploads.createIndex({ file_sid: 1 }, { unique: true });
  await repo.limits.createIndex({ partner_sid: 1 }, { unique: true });
  // The LRU sweep's: MongoDB answers the candidate query from the compound index alone (equality
  // prefix, then the sort order: no in-memory sort), and so does the embedded SQLite store from its
  // key columns. (Chosen for the NeDB store before it, whose plans bench/threshold-sweep.ts measured.)
  await repo.files.createIndex({ container_sid: 1, threshold_include: 1, date_last_accessed: 1, file_sid: 1 });
  await repo.files.createIndex({ date_last_accessed: 1 });
  return repo;
}
