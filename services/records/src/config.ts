import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig, LargeListConfig, largeListLimits, type LargeListLimits } from '@patchbay/platform';

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
};

export const recordsSchema = Type.Object({ ...CommonConfig, ...RecordsConfig });
/** The checked config values the service is started from. */
export type RecordsConfigValues = Static<typeof recordsSchema>;

/** Typed options the records service runs with (handlers never read the environment). */
export type RecordsSettings = Readonly<{
  /** The limit of detail-record lists without `limit`. */
  cdrDefaultLimit: number;
  /** LIST_LARGE_*: how many large lists are built and sent at once. */
  largeLists: LargeListLimits;
}>;

/**
 * Checked config → settings: the one mapping, used by src/main.ts and by the all-in-one process
 * alike, so the two run modes cannot drift.
 */
export function recordsSettings(config: Readonly<RecordsConfigValues>): RecordsSettings {
  return Object.freeze({ cdrDefaultLimit: config.CDR_DEFAULT_LIMIT, largeLists: largeListLimits(config) });
}
