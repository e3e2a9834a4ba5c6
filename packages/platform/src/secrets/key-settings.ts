import path from 'node:path';
import { KEY_BYTES } from './key-ring';

/**
 * What a set of credentials keys is for and where its keys come from: the environment variable of
 * the current key, the one of the old keys (comma-separated), and the key file an embedded
 * installation generates when the variable is unset.
 */
export interface CredentialKeySpec {
  /** `push`, `storage`: in log lines, and binds revisions to their purpose (KeyRing). */
  purpose: string;
  keyEnv: string;
  oldKeysEnv: string;
  /** The owning service's data directory name under DATA_DIR (the key file is `<DATA_DIR>/<dir>/credentials.key`). */
  dataSubdir: string;
}

/** Where a service's credentials keys come from (see openKeyRing). */
export interface CredentialKeySettings {
  /** The current key from the environment; null: the generated key file (embedded store only). */
  current: Buffer | null;
  /** The old keys: still opened, never sealed with. */
  old: Buffer[];
  /** The generated key of an embedded installation: `<DATA_DIR>/<dataSubdir>/credentials.key`. */
  keyFile: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+$/;
const HOW = 'make one with `openssl rand -base64 32`';

/** One key from the environment, or a problem that names the key and never echoes its value. */
function decodeKey(value: string, name: string): Buffer | string {
  const compact = value.trim();
  if (!BASE64.test(compact)) return `${name}: must be Base64 of ${KEY_BYTES} random bytes (it is not Base64); ${HOW}`;
  const key = Buffer.from(compact, /[-_]/.test(compact) ? 'base64url' : 'base64');
  if (key.length !== KEY_BYTES)
    return `${name}: must be Base64 of exactly ${KEY_BYTES} bytes (got ${key.length} bytes); ${HOW}`;
  return key;
}

/**
 * Reads the current and old keys named by `spec` from `env`. Returns the problems instead of
 * throwing, so start-up can list them with every other bad key. Without the current key an
 * embedded installation generates a key file; with MONGODB_URL that is refused, because every
 * replica must seal and open with the same key.
 */
export function credentialKeySettings(
  spec: CredentialKeySpec,
  env: Readonly<Record<string, unknown>> & { MONGODB_URL?: string; DATA_DIR: string },
): { settings: CredentialKeySettings; problems: string[] } {
  const problems: string[] = [];
  let current: Buffer | null = null;
  const currentValue = env[spec.keyEnv];
  if (typeof currentValue === 'string' && currentValue) {
    const key = decodeKey(currentValue, spec.keyEnv);
    if (typeof key === 'string') problems.push(key);
    else current = key;
  } else if (env.MONGODB_URL) {
    problems.push(
      `${spec.keyEnv}: required with MONGODB_URL (every ${spec.purpose} ` +
        `replica must share one key to encrypt ${spec.purpose} credentials); ` +
        `${HOW}`,
    );
  }
  const old: Buffer[] = [];
  const oldValue = env[spec.oldKeysEnv];
  const items = (typeof oldValue === 'string' ? oldValue : '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  items.forEach((item, i) => {
    const key = decodeKey(item, `${spec.oldKeysEnv} (key ${i + 1} of ${items.length})`);
    if (typeof key === 'string') problems.push(key);
    else old.push(key);
  });
  // The owning service's own data directory, as openDocStore names it in both run modes.
  const keyFile = path.resolve(env.DATA_DIR, spec.dataSubdir, 'credentials.key');
  return { settings: { current, old, keyFile }, problems };
}
