import type { Collection, Logger } from '@patchbay/platform';
import { CREDENTIAL_FIELDS } from '../domain/application-fields';
import type { ApplicationDoc } from '../domain/documents';
import type { KeyRing } from '@patchbay/platform';
import { isSealedSecret } from '@patchbay/platform';
import { openStoredField, secretContext } from './application-secrets';
import { sealSecret } from '@patchbay/platform';
import { SecretError } from '@patchbay/platform';

const PAGE = 200;

/** What one migration run did. */
export interface MigrationCounts {
  applications: number;
  /** Applications with at least one field re-sealed. */
  reencrypted: number;
  /** Fields re-sealed: plain strings and values sealed with an old key. */
  fields: number;
  /** Fields left as they are because their key is not configured. */
  unreadable: number;
}

/**
 * Start-up migration: seals every credential still stored as a plain string (written before
 * credentials were encrypted) and re-seals every one sealed with an old key, with the current
 * key. Idempotent (values already under the current key are skipped), paged by SID. A value whose
 * key is unknown is logged with its application and key id and left alone: adding the key to
 * PUSH_CREDENTIALS_OLD_KEYS and restarting migrates it. An update racing the migration wins: the
 * write only applies to the credentials version it read.
 */
export async function migrateCredentials(
  applications: Collection<ApplicationDoc>,
  ring: KeyRing,
  log: Logger,
): Promise<MigrationCounts> {
  const counts: MigrationCounts = { applications: 0, reencrypted: 0, fields: 0, unreadable: 0 };
  let after: string | null = null;
  for (;;) {
    const page: ApplicationDoc[] = await applications.find(after === null ? {} : { application_sid: { $gt: after } }, {
      sort: { application_sid: 1 },
      limit: PAGE,
    });
    for (const doc of page) {
      counts.applications++;
      const sid = doc.application_sid;
      const $set: Record<string, unknown> = {};
      for (const field of CREDENTIAL_FIELDS) {
        const stored = doc[field];
        if (stored === null || stored === undefined || (isSealedSecret(stored) && stored.kid === ring.current.kid))
          continue;
        try {
          const plain = openStoredField(ring, sid, field, stored) as string;
          $set[field] = sealSecret(ring, plain, secretContext(sid, field));
        } catch (err) {
          if (!(err instanceof SecretError)) throw err;
          counts.unreadable++;
          log.error(
            { application_sid: sid, partner_sid: doc.partner_sid, field, kid: err.kid, reason: err.message },
            'push credential cannot be decrypted: add its key to PUSH_CREDENTIALS_OLD_KEYS and restart',
          );
        }
      }
      const n = Object.keys($set).length;
      if (n === 0) continue;
      const result = await applications.updateOne(
        { application_sid: sid, credentials_version: doc.credentials_version },
        { $set },
      );
      if (result.matchedCount > 0) {
        counts.reencrypted++;
        counts.fields += n;
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].application_sid;
  }
  log.info({ ...counts, kid: ring.current.kid }, 'push credentials migration done');
  return counts;
}
