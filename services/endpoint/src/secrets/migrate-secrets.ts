import {
  SecretError,
  isSealedSecret,
  sealSecret,
  type Collection,
  type Doc,
  type KeyRing,
  type Logger,
} from '@patchbay/platform';
import { mapSecretFields, openStored, secretContext } from './endpoint-secrets';

const PAGE = 200;

/** What one migration run did. */
export interface SecretMigrationCounts {
  endpoints: number;
  /** Endpoints with at least one secret (re-)sealed. */
  resealed: number;
  /** Secrets left as they are because their key is not configured. */
  unreadable: number;
}

/**
 * Start-up migration, as push's: seals every endpoint secret still stored in plaintext (written
 * before secrets were sealed) and re-seals every one sealed with an old key, with the current key.
 * Idempotent, paged by SID, over the raw collection. A secret whose key is unknown is logged and left
 * alone. The write applies only to the revision read, so an update racing the migration wins (and
 * seals what it writes itself). The store's files may keep the old plaintext until they are
 * compacted: the embedded store compacts them when it next starts.
 */
export async function migrateEndpointSecrets(
  raw: Collection<Doc>,
  ring: KeyRing,
  log: Logger,
): Promise<SecretMigrationCounts> {
  const counts: SecretMigrationCounts = { endpoints: 0, resealed: 0, unreadable: 0 };
  let after: string | null = null;
  for (;;) {
    const page: Doc[] = await raw.find(after === null ? {} : { endpoint_sid: { $gt: after } }, {
      sort: { endpoint_sid: 1 },
      limit: PAGE,
    });
    for (const doc of page) {
      counts.endpoints++;
      const sid = String(doc.endpoint_sid);
      let changed = false;
      const $set = mapSecretFields(doc, (stored, path) => {
        if (isSealedSecret(stored) && stored.kid === ring.current.kid) return stored;
        try {
          const plain = openStored(ring, sid, path, stored);
          changed = true;
          return sealSecret(ring, plain, secretContext(sid, path));
        } catch (err) {
          if (!(err instanceof SecretError)) throw err;
          counts.unreadable++;
          log.error(
            { endpoint_sid: sid, partner_sid: doc.partner_sid, field: path, kid: err.kid, reason: err.message },
            'endpoint secret cannot be decrypted: add its key to ENDPOINT_CREDENTIALS_OLD_KEYS and restart',
          );
          return stored;
        }
      });
      if (!changed) continue;
      const result = await raw.updateOne({ endpoint_sid: sid, revision: doc.revision ?? null }, { $set });
      if (result.matchedCount > 0) counts.resealed++;
    }
    if (page.length < PAGE) break;
    after = String(page[page.length - 1].endpoint_sid);
  }
  log.info({ ...counts, kid: ring.current.kid }, 'endpoint secrets migration done');
  return counts;
}
