import { ConfigError, credentialKeySettings, type CredentialKeySettings } from '@patchbay/platform';

/**
 * The keys the records service seals its secrets with at rest (record exports' callback signing keys): the push,
 * storage and endpoint scheme (packages/platform/src/secrets), with the records service's own keys:
 * RECORDS_CREDENTIALS_KEY, RECORDS_CREDENTIALS_OLD_KEYS, `<DATA_DIR>/records/credentials.key`.
 */
export const RECORDS_KEYS = {
  purpose: 'records',
  keyEnv: 'RECORDS_CREDENTIALS_KEY',
  oldKeysEnv: 'RECORDS_CREDENTIALS_OLD_KEYS',
  dataSubdir: 'records',
} as const;

/** RECORDS_CREDENTIALS_KEY and its old keys, checked; ConfigError naming the key, never its value. */
export function recordsCredentialKeys(config: {
  RECORDS_CREDENTIALS_KEY?: string;
  RECORDS_CREDENTIALS_OLD_KEYS?: string;
  MONGODB_URL?: string;
  DATA_DIR: string;
}): CredentialKeySettings {
  const { settings, problems } = credentialKeySettings(RECORDS_KEYS, config);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
