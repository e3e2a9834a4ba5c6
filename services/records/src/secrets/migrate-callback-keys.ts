import { SecretError, isSealedSecret, type Collection, type KeyRing, type Logger } from '@patchbay/platform';
import type { ExportDoc } from '../domain/export-docs';
import { openCallbackKey, sealCallbackKey } from './callback-key';

const PAGE = 200;

/** What one migration run did. */
export interface CallbackKeyMigrationCounts {
  exports: number;
  /** Callback keys sealed: plain ones (earlier versions) and ones sealed with an old key. */
  resealed: number;
  /** Keys left as they are because their credentials key is not configured. */
  unreadable: number;
}

/**
 * Start-up migration, as push's and the endpoint's: seals every export's callback signing key still stored in
 * plaintext (written before these keys were sealed) and re-seals every one sealed with an old key, with the current
 * key. Idempotent, paged by SID. A key whose credentials key is unknown is logged and left alone: adding that key to
 * RECORDS_CREDENTIALS_OLD_KEYS and restarting migrates it. Nothing else writes a callback key after its export is
 * created, so there is no update to race.
 */
export async function migrateCallbackKeys(
  exports: Collection<ExportDoc>,
  ring: KeyRing,
  log: Logger,
): Promise<CallbackKeyMigrationCounts> {
  const counts: CallbackKeyMigrationCounts = { exports: 0, resealed: 0, unreadable: 0 };
  let after: string | null = null;
  for (;;) {
    const page: ExportDoc[] = await exports.find(after === null ? {} : { export_sid: { $gt: after } }, {
      sort: { export_sid: 1 },
      limit: PAGE,
      projection: { export_sid: 1, partner_sid: 1, callback: 1 },
    });
    for (const doc of page) {
      counts.exports++;
      const stored = doc.callback?.key;
      if (!stored || (isSealedSecret(stored) && stored.kid === ring.current.kid)) continue;
      try {
        const key = openCallbackKey(ring, doc.export_sid, stored);
        const r = await exports.updateOne(
          { export_sid: doc.export_sid },
          { $set: { 'callback.key': sealCallbackKey(ring, doc.export_sid, key) } },
        );
        if (r.matchedCount > 0) counts.resealed++;
      } catch (err) {
        if (!(err instanceof SecretError)) throw err;
        counts.unreadable++;
        log.error(
          { export_sid: doc.export_sid, partner_sid: doc.partner_sid, kid: err.kid, reason: err.message },
          'export callback key cannot be decrypted: add its key to RECORDS_CREDENTIALS_OLD_KEYS and restart',
        );
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].export_sid;
  }
  log.info({ ...counts, kid: ring.current.kid }, 'records credentials migration done');
  return counts;
}
