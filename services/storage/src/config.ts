import { Type } from '@sinclair/typebox';

/** The storage service's own environment keys (with CommonConfig). */
export const StorageConfig = {
  /** Public root of the file server, used in `publish_uri`. */
  STORAGE_URL: Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:8081' }),
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
