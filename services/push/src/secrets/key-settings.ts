import path from 'node:path';
import { KEY_BYTES } from './key-ring';

/** Where the push service's credentials keys come from (see openKeyRing). */
export interface CredentialKeySettings {
  /** PUSH_CREDENTIALS_KEY; null: the generated key file (embedded store only). */
  current: Buffer | null;
  /** PUSH_CREDENTIALS_OLD_KEYS: still opened, never sealed with. */
  old: Buffer[];
  /** The generated key of an embedded installation: `<DATA_DIR>/push/credentials.key`. */
  keyFile: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+$/;
const HOW = 'make one with `openssl rand -base64 32`';

/** One key from the environment, or a problem that names the key and never echoes its value. */
function decodeKey(value: string, name: string): Buffer | string {
  const compact = value.trim();
  if (!BASE64.test(compact)) return `${name}: must be Base64 of ${KEY_BYTES} random bytes (it is not Base64); ${HOW}`;
  const key = Buffer.from(compact, /[-_]/.test(compact) ? 'base64url' : 'base64');
  if (key.length !== KEY_BYTES) return `${name}: must be Base64 of exactly ${KEY_BYTES} bytes (got ${key.length} bytes); ${HOW}`;
  return key;
}

/**
 * Reads PUSH_CREDENTIALS_KEY and PUSH_CREDENTIALS_OLD_KEYS (comma-separated). Returns the
 * problems instead of throwing, so start-up can list them with every other bad key. Without
 * PUSH_CREDENTIALS_KEY an embedded installation generates a key file; with MONGODB_URL that is
 * refused, because every push replica must seal and open with the same key.
 */
export function credentialKeySettings(env: { PUSH_CREDENTIALS_KEY?: string; PUSH_CREDENTIALS_OLD_KEYS?: string; MONGODB_URL?: string; DATA_DIR: string }):
  { settings: CredentialKeySettings; problems: string[] } {
  const problems: string[] = [];
  let current: Buffer | null = null;
  if (env.PUSH_CREDENTIALS_KEY) {
    const key = decodeKey(env.PUSH_CREDENTIALS_KEY, 'PUSH_CREDENTIALS_KEY');
    if (typeof key === 'string') problems.push(key); else current = key;
  } else if (env.MONGODB_URL) {
    problems.push(`PUSH_CREDENTIALS_KEY: required with MONGODB_URL (every push replica must share one key to encrypt push credentials); ${HOW}`);
  }
  const old: Buffer[] = [];
  const items = (env.PUSH_CREDENTIALS_OLD_KEYS ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  items.forEach((item, i) => {
    const key = decodeKey(item, `PUSH_CREDENTIALS_OLD_KEYS (key ${i + 1} of ${items.length})`);
    if (typeof key === 'string') problems.push(key); else old.push(key);
  });
  // The push service's own data directory, as openDocStore names it in both run modes.
  const keyFile = path.resolve(env.DATA_DIR, 'push', 'credentials.key');
  return { settings: { current, old, keyFile }, problems };
}
