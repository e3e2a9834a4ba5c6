import { Type, type Static } from '@sinclair/typebox';
import { CommonConfig } from '@patchbay/platform';

/**
 * The records service's own environment keys (composed with CommonConfig by bootService and by
 * the all-in-one process). None yet: everything the service needs comes through its ports.
 */
export const RecordsConfig = {};

export const recordsSchema = Type.Object({ ...CommonConfig, ...RecordsConfig });
/** The checked config values the service is started from. */
export type RecordsConfigValues = Static<typeof recordsSchema>;

/** Typed options the records service runs with (handlers never read the environment). None yet. */
export type RecordsSettings = Readonly<Record<string, never>>;

/**
 * Checked config → settings: the one mapping, used by src/main.ts and by the all-in-one process
 * alike, so the two run modes cannot drift.
 */
export function recordsSettings(_config: Readonly<RecordsConfigValues>): RecordsSettings {
  return {};
}
