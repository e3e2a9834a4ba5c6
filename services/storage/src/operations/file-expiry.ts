import type { SweepDeleteReply, SweepDeleteRequest, SweepExpiredReply, SweepExpiredRequest } from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { deleteFile } from './files';
import { deletedFileRef } from './lru-sweep';

/** Lifecycle expiry (the threshold-worker asks): files whose lifecycle_ttl has passed, oldest expiry first. */
export async function expiredFiles(ctx: StorageContext, req: SweepExpiredRequest): Promise<SweepExpiredReply> {
  // A one-branch $or: a workaround for the NeDB store before SQLite (its sparse index on expires_at
  // held no Date key). Harmless now: MongoDB and SQLite both answer it from the index.
  const files = await ctx.repo.files.find(
    { $or: [{ expires_at: { $lte: new Date() } }] },
    {
      sort: { expires_at: 1, file_sid: 1 },
      limit: req.limit,
      projection: { file_sid: 1, container_sid: 1, expires_at: 1 },
    },
  );
  return {
    files: files.flatMap((f) =>
      f.expires_at
        ? [{ file_sid: f.file_sid, container_sid: f.container_sid, expires_at: new Date(f.expires_at).toISOString() }]
        : [],
    ),
  };
}

/** Deletes one file if it has expired (idempotent). */
export async function deleteExpiredFile(ctx: StorageContext, req: SweepDeleteRequest): Promise<SweepDeleteReply> {
  const f = await ctx.repo.files.findOne({ file_sid: req.file_sid, expires_at: { $lte: new Date() } });
  const deleted = f ? await deleteFile(ctx, f) : false;
  return { deleted, file: deleted && f ? deletedFileRef(f) : null, container: null, holds_lease: false };
}
