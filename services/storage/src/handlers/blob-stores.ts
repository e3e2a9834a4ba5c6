import { Subjects } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { blobStoreForRouting } from '../operations/external-stores';

/** Internal: external stores for the blob routing of every service. */
export function blobStoreHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.blobStoreOpen]: (req: { store_id: string }) => blobStoreForRouting(ctx, req.store_id),
  };
}
