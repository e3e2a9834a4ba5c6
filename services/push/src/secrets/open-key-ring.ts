import type { Logger } from '@patchbay/platform';
import { KeyRing } from './key-ring';
import type { CredentialKeySettings } from './key-settings';
import { readOrCreateKeyFile } from './key-file';

/**
 * The key ring the push service runs with: PUSH_CREDENTIALS_KEY (plus the old keys), or, when it
 * is unset (embedded store only: config refuses that with MongoDB), the generated key file under
 * the push data directory, with a warning, since that key lies next to the data it protects.
 */
export function openKeyRing(settings: CredentialKeySettings, log: Logger): KeyRing {
  let current = settings.current;
  if (!current) {
    current = readOrCreateKeyFile(settings.keyFile, log);
    log.warn({ file: settings.keyFile },
      'PUSH_CREDENTIALS_KEY is not set: push credentials are encrypted with a key kept in the data directory. Set PUSH_CREDENTIALS_KEY in production (docs/operations.md)');
  }
  const ring = new KeyRing(current, settings.old);
  log.info({ kid: ring.current.kid, old_kids: ring.kids().slice(1) }, 'push credentials keys loaded');
  return ring;
}
