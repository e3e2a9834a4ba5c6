import { credentialKeySettings as platformKeySettings, type CredentialKeySettings } from '@patchbay/platform';

export type { CredentialKeySettings };

/** Push's credentials keys: PUSH_CREDENTIALS_KEY, PUSH_CREDENTIALS_OLD_KEYS, `<DATA_DIR>/push/credentials.key`. */
export const PUSH_KEYS = {
  purpose: 'push',
  keyEnv: 'PUSH_CREDENTIALS_KEY',
  oldKeysEnv: 'PUSH_CREDENTIALS_OLD_KEYS',
  dataSubdir: 'push',
} as const;

/**
 * Reads PUSH_CREDENTIALS_KEY and PUSH_CREDENTIALS_OLD_KEYS (comma-separated) with the platform's
 * credentials-key scheme (packages/platform/src/secrets). Without PUSH_CREDENTIALS_KEY an embedded
 * installation generates `<DATA_DIR>/push/credentials.key`; with MONGODB_URL that is refused.
 */
export function credentialKeySettings(env: {
  PUSH_CREDENTIALS_KEY?: string;
  PUSH_CREDENTIALS_OLD_KEYS?: string;
  MONGODB_URL?: string;
  DATA_DIR: string;
}): { settings: CredentialKeySettings; problems: string[] } {
  return platformKeySettings(PUSH_KEYS, env);
}
