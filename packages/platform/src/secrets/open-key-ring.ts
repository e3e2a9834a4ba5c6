import type { Logger } from '../logging/logger';
import { KeyRing } from './key-ring';
import type { CredentialKeySettings, CredentialKeySpec } from './key-settings';
import { readOrCreateKeyFile } from './key-file';

/**
 * The key ring a service runs with: its key from the environment (plus the old keys), or, when it
 * is unset (embedded store only: config refuses that with MongoDB), the generated key file under
 * the service's data directory, with a warning, since that key lies next to the data it protects.
 */
export function openKeyRing(
  settings: CredentialKeySettings,
  log: Logger,
  spec: Pick<CredentialKeySpec, 'purpose' | 'keyEnv'>,
): KeyRing {
  let current = settings.current;
  if (!current) {
    current = readOrCreateKeyFile(settings.keyFile, log, { purpose: spec.purpose, keyEnv: spec.keyEnv });
    log.warn(
      { file: settings.keyFile },
      `${spec.keyEnv} is not set: ${spec.purpose} credentials are encrypted ` +
        `with a key kept in the data directory. Set ${spec.keyEnv} in ` +
        `production (docs/operations.md)`,
    );
  }
  const ring = new KeyRing(current, settings.old, spec.purpose);
  log.info({ kid: ring.current.kid, old_kids: ring.kids().slice(1) }, `${spec.purpose} credentials keys loaded`);
  return ring;
}
