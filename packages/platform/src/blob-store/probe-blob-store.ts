import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ApiError } from '@patchbay/contracts';
import type { BlobStore } from './port';
import { BlobStoreUnavailableError } from './blob-store-unavailable-error';
import { byteChunks } from './byte-chunks';

const BODY = Buffer.from('patchbay storage probe\n');

/**
 * Checks that a store can be used the way Patchbay uses it: writes a small probe object, reads it
 * back and deletes it (docs/interface-notes.md, External containers: create and update write and delete a
 * probe object; the read is added because a store Patchbay cannot read from is as useless as one
 * it cannot write to). The object is `patchbay-probe/<uuid>`, under the store's own prefix.
 *
 * Resolves when all three work; otherwise rejects with the adapter's error, already translated —
 * for remote stores a BlobStoreUnavailableError whose `reason` and plain-words message the storage
 * service turns into the 422 naming `external_attributes`. The probe object is removed even when
 * the read fails.
 */
export async function probeBlobStore(store: BlobStore): Promise<void> {
  const key = `patchbay-probe/${randomUUID()}`;
  await store.put(key, Readable.from([BODY]));
  try {
    const read: Buffer[] = [];
    for await (const chunk of byteChunks(await store.get(key))) read.push(chunk);
    if (!Buffer.concat(read).equals(BODY)) {
      throw new BlobStoreUnavailableError({
        reason: 'provider_error',
        message: 'the storage returned other bytes than were written to it',
      });
    }
  } catch (err) {
    await store.delete(key).catch(() => undefined);
    throw err instanceof ApiError
      ? err
      : new BlobStoreUnavailableError({
          reason: 'provider_error',
          message: 'the storage failed to return the probe object',
          cause: err,
        });
  }
  await store.delete(key);
}
