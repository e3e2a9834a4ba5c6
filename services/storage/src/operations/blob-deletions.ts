import { DuplicateKeyError, isExternalBlobKey } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { Deadline } from '../external-deadline';

/**
 * Deletes a deleted file's blob. An external storage may be unreachable when its file is deleted
 * (the record is gone already): its object is then remembered and deleted by the next maintenance passes, so
 * the customer's bucket is not left with objects no file refers to. Patchbay's own store fails as
 * before (removeOrphanBlobs lists it). An external delete that has not ended within the request's
 * share of the bus timeout (external-deadline.ts) counts as failed: the caller is answered in time.
 */
export async function deleteBlobOrRetryLater(ctx: StorageContext, key: string): Promise<void> {
  const { blobs } = ctx;
  const external = isExternalBlobKey(key);
  try {
    await (external ? new Deadline(ctx.externalDeadlineMs).race(blobs.delete(key)) : blobs.delete(key));
  } catch (err) {
    if (!external) throw err;
    ctx.log.warn(
      { err, blob_key: key },
      'object of a deleted file not deleted from its external storage: retried by maintenance',
    );
    await ctx.repo.blobDeletions
      .insertOne({ blob_key: key, date_created: new Date(), attempts: 1 })
      .catch((e: unknown) => {
        if (!(e instanceof DuplicateKeyError)) throw e;
      });
  }
}

/** Tries the remembered deletions again; gives up on one after a week of failures (logged). */
export async function retryBlobDeletions(ctx: StorageContext, limit = 20): Promise<number> {
  const { blobs } = ctx;
  let done = 0;
  for (const d of await ctx.repo.blobDeletions.find({}, { limit })) {
    try {
      await blobs.delete(d.blob_key);
    } catch (err) {
      if (Date.now() - new Date(d.date_created).getTime() < 7 * 24 * 3600 * 1000) {
        await ctx.repo.blobDeletions.updateOne({ blob_key: d.blob_key }, { $inc: { attempts: 1 } });
        continue;
      }
      ctx.log.error(
        { err, blob_key: d.blob_key, attempts: d.attempts },
        'gave up deleting an object of a deleted file from its external storage',
      );
    }
    await ctx.repo.blobDeletions.deleteOne({ blob_key: d.blob_key });
    done += 1;
  }
  return done;
}
