import { Type, type Static } from '@sinclair/typebox';
import {
  CommonConfig,
  LargeListConfig,
  largeListLimits,
  type CredentialKeySettings,
  type LargeListLimits,
} from '@patchbay/platform';
import { recordsCredentialKeys } from './secrets/key-settings';

/**
 * The records service's own environment keys (composed with CommonConfig by bootService and by
 * the all-in-one process).
 */
export const RecordsConfig = {
  /**
   * The `limit` of `call_drs` and `message_drs` lists when a request gives none (reference-facts
   * "Compatibility settings"): 10 as the interface says; operators whose partners use the
   * publisher's CDR downloader (no `limit`, stops at the first page under 1000) set 1000.
   */
  CDR_DEFAULT_LIMIT: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** Large pages of call and message records in progress at once, per partner and in total. */
  ...LargeListConfig,
  /** Record exports run at once by one records process (each streams one file). */
  EXPORT_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 16, default: 2 }),
  /**
   * How long a running export is its process's without a sign of life (ms): an export whose process
   * died (kill -9) is started again by another, or by the same one restarted, once this has passed.
   */
  EXPORT_LEASE_MS: Type.Integer({ minimum: 1000, maximum: 600000, default: 30000 }),
  /** Let callbacks reach loopback, private and link-local addresses (tests, closed networks); as the endpoint's. */
  CALLBACK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  /** Longest one callback request may take (ms). */
  CALLBACK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 10000 }),
  /** Delay after the first failed attempt (ms); doubles per attempt, at most 10 minutes. */
  CALLBACK_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 600000, default: 5000 }),
  /** How long a callback keeps being retried before it is given up (ms). */
  CALLBACK_RETRY_FOR_MS: Type.Integer({ minimum: 1000, maximum: 86400000, default: 3600000 }),
  /**
   * Base64 of the 32-byte key record exports' callback signing keys are encrypted with at rest (AES-256-GCM).
   * Required with MONGODB_URL; unset with the embedded store, a key generated once in
   * `<DATA_DIR>/records/credentials.key`. Never echoed.
   */
  RECORDS_CREDENTIALS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Former keys (comma-separated), still opened during a rotation, never sealed with. */
  RECORDS_CREDENTIALS_OLD_KEYS: Type.Optional(Type.String({ minLength: 1 })),
};

export const recordsSchema = Type.Object({ ...CommonConfig, ...RecordsConfig });
/** The checked config values the service is started from. */
export type RecordsConfigValues = Static<typeof recordsSchema>;

/** How record exports run and call back. */
export type ExportSettings = Readonly<{
  concurrency: number;
  leaseMs: number;
  /** How long a call to another service over the bus may take (ms). */
  busTimeoutMs: number;
  callbacks: Readonly<{ allowPrivate: boolean; timeoutMs: number; retryBaseMs: number; retryForMs: number }>;
}>;

/** Typed options the records service runs with (handlers never read the environment). */
export type RecordsSettings = Readonly<{
  /** The limit of detail-record lists without `limit`. */
  cdrDefaultLimit: number;
  /** LIST_LARGE_*: how many large lists are built and sent at once. */
  largeLists: LargeListLimits;
  exports: ExportSettings;
  /**
   * Where the key sealing exports' callback signing keys comes from (RECORDS_CREDENTIALS_KEY). Unset (tests): a key
   * made for this process only.
   */
  credentialKeys?: CredentialKeySettings;
}>;

/**
 * Checked config → settings: the one mapping, used by src/main.ts and by the all-in-one process
 * alike, so the two run modes cannot drift. A bad credentials key (not Base64 of 32 bytes, or missing
 * with MONGODB_URL) is a ConfigError naming the variable, never its value.
 */
export function recordsSettings(config: Readonly<RecordsConfigValues>): RecordsSettings {
  return Object.freeze({
    cdrDefaultLimit: config.CDR_DEFAULT_LIMIT,
    largeLists: largeListLimits(config),
    exports: Object.freeze({
      concurrency: config.EXPORT_CONCURRENCY,
      leaseMs: config.EXPORT_LEASE_MS,
      busTimeoutMs: config.BUS_TIMEOUT_MS,
      callbacks: Object.freeze({
        allowPrivate: config.CALLBACK_ALLOW_PRIVATE,
        timeoutMs: config.CALLBACK_TIMEOUT_MS,
        retryBaseMs: config.CALLBACK_RETRY_BASE_MS,
        retryForMs: config.CALLBACK_RETRY_FOR_MS,
      }),
    }),
    credentialKeys: recordsCredentialKeys(config),
  });
}

/** The export settings of unit tests and tools that start the service without config (the defaults above). */
export const DEFAULT_EXPORT_SETTINGS: ExportSettings = Object.freeze({
  concurrency: 2,
  leaseMs: 30000,
  busTimeoutMs: 10000,
  callbacks: Object.freeze({ allowPrivate: false, timeoutMs: 10000, retryBaseMs: 5000, retryForMs: 3600000 }),
});
