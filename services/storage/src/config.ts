import { PROBE_WAIT_MS } from '@patchbay/contracts';
import { Type, type Static } from '@sinclair/typebox';
import {
  LargeListConfig,
  largeListLimits,
  type LargeListLimits,
  CommonConfig,
  ConfigError,
  PublicFilesConfig,
  credentialKeySettings,
  publicFilesUrl,
  type CredentialKeySettings,
} from '@patchbay/platform';
import type { ProbeRetry } from './domain/probe-retry';

/**
 * The keys external containers' credentials are sealed with at rest (decisions §28): the push
 * scheme, storage's own keys.
 */
export const STORAGE_KEYS = {
  purpose: 'storage',
  keyEnv: 'STORAGE_CREDENTIALS_KEY',
  oldKeysEnv: 'STORAGE_CREDENTIALS_OLD_KEYS',
  dataSubdir: 'storage',
} as const;

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
  /**
   * Base64 of the 32-byte key external containers' credentials are encrypted with at rest
   * (AES-256-GCM). Required with MONGODB_URL; unset with the embedded store: a key generated once
   * in `<DATA_DIR>/storage/credentials.key`. Never echoed.
   */
  STORAGE_CREDENTIALS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Former keys (comma-separated), still opened during a rotation, never sealed with. */
  STORAGE_CREDENTIALS_OLD_KEYS: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Budget in bytes of the cache of download-time transcoded copies (`?f=`/`?br=`), all partners
   * together: beyond it the least recently used copies are removed (never one being read). 0 keeps
   * none once read. Default 1 GiB.
   */
  TRANSCODE_CACHE_BYTES: Type.Integer({ minimum: 0, default: 1024 ** 3 }),
  /** Large lists of files in progress at once, per partner and in total. */
  ...LargeListConfig,
  /** How long storage waits for the transcoder's probe of a media file (duration, format) before giving up on it. */
  STORAGE_PROBE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: PROBE_WAIT_MS }),
  /**
   * A media probe that failed (timeout, transcoder away, bus down) is retried from a durable queue: first after this
   * long (plus the probe timeout, for the commit's own probe), then each wait twice the one before, up to
   * STORAGE_PROBE_RETRY_MAX_MS, until it answers or shows the file is not media (decisions §49).
   */
  STORAGE_PROBE_RETRY_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 5_000 }),
  /**
   * The longest wait between two attempts of a failed probe. With the default, every file is described within
   * 90 s of the transcoder answering again (this plus the probe timeout).
   */
  STORAGE_PROBE_RETRY_MAX_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 60_000 }),
};

export interface StorageSettings {
  storageUrl: string;
  uploadStaleMs: number;
  sweepIntervalMs: number;
  busTimeoutMs: number;
  /** EXTERNAL_STORAGE_ALLOW_PRIVATE (default false): external containers may use non-public addresses. */
  allowPrivateExternalStorage?: boolean;
  /** Default true: see STORAGE_RECONCILE_ON_START. */
  reconcileOnStart?: boolean;
  /** Default true: see STORAGE_REQUEUE_TRANSCODING_ON_START. */
  requeueTranscodingOnStart?: boolean;
  /** Where the credentials keys come from (storageCredentialKeys). Unset (tests): a key made for this process only. */
  credentialKeys?: CredentialKeySettings;
  /** TRANSCODE_CACHE_BYTES (default 1 GiB). */
  copyCacheBytes?: number;
  /** LIST_LARGE_*: how many large lists of files are built and sent at once (unset, tests: the defaults). */
  largeLists?: LargeListLimits;
  /**
   * Media probes (decisions §49): their timeout and retry backoff, and where failed ones wait — `store` (the
   * all-in-one: its in-process bus loses jobs with the process) or `bus` (JetStream). Unset (tests): 15 s, 5 s to
   * 60 s, the bus.
   */
  probe?: { timeoutMs: number; retry: ProbeRetry; queue: 'bus' | 'store' };
}

export const storageSchema = Type.Object({ ...CommonConfig, ...StorageConfig });
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
    allowPrivateExternalStorage: c.EXTERNAL_STORAGE_ALLOW_PRIVATE,
    reconcileOnStart: c.STORAGE_RECONCILE_ON_START ?? !c.MONGODB_URL,
    requeueTranscodingOnStart: c.STORAGE_REQUEUE_TRANSCODING_ON_START ?? !c.NATS_URL,
    credentialKeys: storageCredentialKeys(c),
    copyCacheBytes: c.TRANSCODE_CACHE_BYTES,
    largeLists: largeListLimits(c),
    probe: probeSettings(c),
  };
}

/** The probe settings, checked together: the longest wait is at least the first. */
function probeSettings(c: StorageConfigValues): NonNullable<StorageSettings['probe']> {
  if (c.STORAGE_PROBE_RETRY_MAX_MS < c.STORAGE_PROBE_RETRY_MS)
    throw new ConfigError([
      `STORAGE_PROBE_RETRY_MAX_MS (${c.STORAGE_PROBE_RETRY_MAX_MS}) must be at least STORAGE_PROBE_RETRY_MS ` +
        `(${c.STORAGE_PROBE_RETRY_MS})`,
    ]);
  return {
    timeoutMs: c.STORAGE_PROBE_TIMEOUT_MS,
    retry: { firstMs: c.STORAGE_PROBE_RETRY_MS, maxMs: c.STORAGE_PROBE_RETRY_MAX_MS },
    queue: c.NATS_URL ? 'bus' : 'store',
  };
}

/** STORAGE_CREDENTIALS_KEY and its old keys, checked; ConfigError naming the key, never its value. */
export function storageCredentialKeys(config: {
  STORAGE_CREDENTIALS_KEY?: string;
  STORAGE_CREDENTIALS_OLD_KEYS?: string;
  MONGODB_URL?: string;
  DATA_DIR: string;
}): CredentialKeySettings {
  const { settings, problems } = credentialKeySettings(STORAGE_KEYS, config);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
