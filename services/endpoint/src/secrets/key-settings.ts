import { ConfigError, credentialKeySettings, type CredentialKeySettings } from '@patchbay/platform';

/**
 * The keys endpoint secrets are sealed with at rest: the push and storage scheme (packages/platform/src/secrets),
 * the endpoint service's own keys: ENDPOINT_CREDENTIALS_KEY, ENDPOINT_CREDENTIALS_OLD_KEYS,
 * `<DATA_DIR>/endpoint/credentials.key`.
 */
export const ENDPOINT_KEYS = {
  purpose: 'endpoint',
  keyEnv: 'ENDPOINT_CREDENTIALS_KEY',
  oldKeysEnv: 'ENDPOINT_CREDENTIALS_OLD_KEYS',
  dataSubdir: 'endpoint',
} as const;

/** ENDPOINT_CREDENTIALS_KEY and its old keys, checked; ConfigError naming the key, never its value. */
export function endpointCredentialKeys(config: {
  ENDPOINT_CREDENTIALS_KEY?: string;
  ENDPOINT_CREDENTIALS_OLD_KEYS?: string;
  MONGODB_URL?: string;
  DATA_DIR: string;
}): CredentialKeySettings {
  const { settings, problems } = credentialKeySettings(ENDPOINT_KEYS, config);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
