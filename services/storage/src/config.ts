import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, PublicFilesConfig, publicFilesUrl } from '@patchbay/platform';

/** The storage service's own environment keys (with CommonConfig). */
export const StorageConfig = {
  /** The public file server: `publish_uri` is STORAGE_URL (default http://127.0.0.1:<STORAGE_PORT>) + `/f/<id>`. */
  ...PublicFilesConfig,
  /** An upload not committed after this long is considered dead: its blob and record are removed. */
  UPLOAD_STALE_MS: Type.Integer({ minimum: 1000, default: 6 * 3600 * 1000 }),
  /** How often stale uploads and orphan blobs are swept. */
  UPLOAD_SWEEP_INTERVAL_MS: Type.Integer({ minimum: 500, default: 10 * 60 * 1000 }),
  /**
   * Recompute container counters from the files at start-up (repairs a crash between a counter
   * update and its file write). Safe only while this is the only storage replica: default on with
   * the embedded store (single process by design), off with MongoDB (replicas may be serving).
   */
  STORAGE_RECONCILE_ON_START: Type.Optional(Type.Boolean()),
  /**
   * Enqueue again, at start-up, the upload-time transcoding of files still waiting for it. Default
   * on with the in-process bus (its jobs die with the process), off with NATS (JetStream keeps
   * them; turn it on once after losing the JetStream store).
   */
  STORAGE_REQUEUE_TRANSCODING_ON_START: Type.Optional(Type.Boolean()),
};

export interface StorageSettings {
  storageUrl: string;
  uploadStaleMs: number;
  sweepIntervalMs: number;
  busTimeoutMs: number;
  /** Default true: see STORAGE_RECONCILE_ON_START. */
  reconcileOnStart?: boolean;
  /** Default true: see STORAGE_REQUEUE_TRANSCODING_ON_START. */
  requeueTranscodingOnStart?: boolean;
}

const storageSchema = Type.Object({ ...CommonConfig, ...StorageConfig });
export type StorageConfigValues = Static<typeof storageSchema>;

/**
 * The one mapping from configuration to settings, used by main.ts and the all-in-one process
 * alike. Reconcile on start: on unless MongoDB is shared with other replicas. Requeue transcoding
 * on start: on with the in-process bus (its jobs die with the process), off with NATS.
 */
export function storageSettings(c: StorageConfigValues): StorageSettings {
  return {
    storageUrl: publicFilesUrl(c),
    uploadStaleMs: c.UPLOAD_STALE_MS,
    sweepIntervalMs: c.UPLOAD_SWEEP_INTERVAL_MS,
    busTimeoutMs: c.BUS_TIMEOUT_MS,
    reconcileOnStart: c.STORAGE_RECONCILE_ON_START ?? !c.MONGODB_URL,
    requeueTranscodingOnStart: c.STORAGE_REQUEUE_TRANSCODING_ON_START ?? !c.NATS_URL,
  };
}
