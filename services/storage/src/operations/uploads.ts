import { randomUUID } from 'node:crypto';
import {
  externalBlobKey,
  fileBlobKey,
  ForbiddenError,
  NotFoundError,
  UnprocessableError,
  type FileUpload,
  type Prepared,
  type Principal,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { uniqueConflict, uniqueKey } from '../domain/container-rules';
import type { ContainerDoc, FileDoc, UploadDoc, UploadFields } from '../domain/documents';
import { checkClassification, declaredClassification, uploadFields } from '../domain/file-fields';
import type { RecordingOrigin } from '../domain/recording-origin';
import { refuseIfFull } from '../counters';
import { deleteBlobOrRetryLater } from './blob-deletions';
import { containerRecipients } from './encryption-keys';
import { currentStoreId } from './external-stores';
import { fileUnderKey } from './upload-idempotency';

/*
 * Upload in two steps around the byte stream (README, Architecture): prepare refuses what the
 * request alone already breaks, before any byte moves; commit (upload-commit.ts) re-checks
 * atomically with the real size and content, and either records the File or removes the blob. A
 * pending upload is recorded so a crash between the two leaves nothing behind after
 * removeStaleUploads.
 */

export const DATA_FIRST_ENCRYPTED =
  'file_object must come before data for a partner with encrypted ' +
  'containers, so that the data is encrypted as it arrives';

/** How a pending upload is recorded: a recording's origin, bytes reserved already, the file a retry repeats. */
export interface PendingUploadOptions {
  recording?: RecordingOrigin;
  reserved?: { file_sid: string; size: number };
  /** The file committed already under the request's Idempotency-Key (fileUnderKey). */
  retryOf?: FileDoc | null;
}

/**
 * Refuses what the request alone already breaks — classification, unique key set, access name,
 * a full container — and records the pending upload (so a crash between prepare and commit leaves
 * nothing behind after the stale-upload removal). Shared by API uploads and recordings.
 */
export async function recordPendingUpload(
  ctx: StorageContext,
  c: ContainerDoc,
  fields: UploadFields,
  opts: PendingUploadOptions = {},
): Promise<Prepared> {
  const { repo } = ctx;
  const { recording, reserved, retryOf } = opts;
  const declared = declaredClassification(fields);
  if (declared) checkClassification(c, declared);
  // A retry of an upload committed already (upload-idempotency.ts) takes nothing more: its commit answers that file.
  if (!retryOf) {
    const dup = fields.unique ? await repo.files.findOne({ unique_key: uniqueKey(c.container_sid, fields) }) : null;
    if (dup) throw uniqueConflict(dup.file_sid, 'file');
    if (fields.file_access_name && (await repo.files.findOne({ file_access_name: fields.file_access_name })))
      throw UnprocessableError.field('file_access_name', 'file_access_name is already in use');
  }
  // External containers have no space limits; their blobs go to the container's storage (decisions §29).
  const type = c.type;
  const room = Math.max(0, c.quota_bytes - c.total_bytes) + (retryOf?.file_bytes ?? 0);
  if (type === 'internal' && !retryOf) refuseIfFull(c, reserved?.size ?? 0, fields.threshold_include);
  if (reserved) {
    // Refused at reserve already (the partner had no encrypted container then): a container named since must not
    // take bytes stored as they came.
    if ((c.encryption_key_sids ?? []).length > 0) throw UnprocessableError.field('file_object', DATA_FIRST_ENCRYPTED);
    // The bytes are in already (under the key reserved for them): the upload gets its container and fields.
    const attached = await repo.uploads.findOneAndUpdate(
      { file_sid: reserved.file_sid, partner_sid: c.partner_sid, reserved: true },
      { $set: { container_sid: c.container_sid, fields, reserved: false } },
    );
    if (!attached) throw new NotFoundError({ code: 'upload_not_found' });
    return { file_sid: attached.file_sid, blob_key: attached.blob_key, max_bytes: room };
  }
  const fileSid = randomUUID();
  const key = fileBlobKey(c.partner_sid, fileSid);
  const keys = await containerRecipients(ctx, c);
  const upload: UploadDoc = {
    file_sid: fileSid,
    partner_sid: c.partner_sid,
    container_sid: c.container_sid,
    blob_key: type !== 'internal' ? externalBlobKey(await currentStoreId(ctx, c, type), key) : key,
    date_created: new Date(),
    fields,
    ...(recording ? { recording } : {}),
    ...(keys.sids.length > 0 ? { encryption_key_sids: keys.sids } : {}),
  };
  await repo.uploads.insertOne(upload);
  return {
    file_sid: fileSid,
    blob_key: upload.blob_key,
    max_bytes: type !== 'internal' ? Number.MAX_SAFE_INTEGER : room,
    ...(keys.sids.length > 0 ? { encrypt_to: keys.public_keys } : {}),
  };
}

/** An API upload's prepare: its File fields checked, into one of the caller's internal containers. */
export async function prepareUpload(
  ctx: StorageContext,
  principal: Principal,
  input: FileUpload,
  reserved?: { file_sid: string; size: number },
  idempotencyKey?: string,
): Promise<Prepared> {
  const c = await uploadContainer(ctx, principal.partner_sid, input.container_sid);
  if (c.type !== 'internal')
    throw UnprocessableError.field(
      'container_sid',
      'files cannot be uploaded through the API to an external container',
    );
  const retryOf = await fileUnderKey(ctx, principal, idempotencyKey);
  return recordPendingUpload(ctx, c, uploadFields(input, c), { reserved, retryOf });
}

/**
 * A record export's prepare (decisions §55): its File fields checked as an API upload's, into any of the caller's
 * containers — an external one too: the bytes go to that storage, with no space limits checked there, as a
 * recording's (decisions §29). Only the records service asks it; API uploads keep `prepareUpload`, which refuses
 * external containers. The export acts for a partner with `storage.manage`: a message without it is refused.
 */
export async function prepareExportUpload(
  ctx: StorageContext,
  principal: Principal,
  input: FileUpload,
  idempotencyKey?: string,
): Promise<Prepared> {
  if (!principal.scopes.includes('storage.manage')) throw new ForbiddenError();
  const c = await uploadContainer(ctx, principal.partner_sid, input.container_sid);
  const retryOf = await fileUnderKey(ctx, principal, idempotencyKey);
  return recordPendingUpload(ctx, c, uploadFields(input, c), { retryOf });
}

/** A pending upload whose bytes come before its fields (multipart with `data` first). */
export async function reserveUpload(ctx: StorageContext, principal: Principal): Promise<Prepared> {
  // The container is not known yet: the bytes may fill the roomiest one; prepare checks the real one.
  const containers = await ctx.repo.containers.find({ partner_sid: principal.partner_sid, type: 'internal' });
  // Bytes of unknown destination would be stored as they came: never for a partner that encrypts (decisions §43).
  if (containers.some((c) => (c.encryption_key_sids ?? []).length > 0))
    throw UnprocessableError.field('file_object', DATA_FIRST_ENCRYPTED);
  const room = Math.max(0, ...containers.map((c) => c.quota_bytes - c.total_bytes));
  const fileSid = randomUUID();
  const upload: UploadDoc = {
    file_sid: fileSid,
    partner_sid: principal.partner_sid,
    container_sid: '',
    blob_key: fileBlobKey(principal.partner_sid, fileSid),
    date_created: new Date(),
    reserved: true,
  };
  await ctx.repo.uploads.insertOne(upload);
  return { file_sid: fileSid, blob_key: upload.blob_key, max_bytes: room };
}

/** The gateway gave up on an upload: its blob and record go. */
export async function abortUpload(
  ctx: StorageContext,
  principal: Principal,
  fileSid: string,
): Promise<{ aborted: boolean }> {
  const u = await pendingUploadOf(ctx, principal, fileSid);
  if (!u) return { aborted: false };
  // A commit that claimed it decides: it records the file or discards the upload itself. An abort
  // that ran anyway would remove the bytes of a file the commit is about to record (a gateway gives
  // up on a slow commit's answer; the commit still finishes).
  const removed = await ctx.repo.uploads.deleteOne({ file_sid: u.file_sid, committing_since: { $exists: false } });
  if (removed === 0) {
    ctx.log.info({ file_sid: u.file_sid }, 'abort of an upload being committed: left to its commit');
    return { aborted: false };
  }
  await deleteBlobOrRetryLater(ctx, u.blob_key);
  return { aborted: true };
}

/**
 * Claims a pending upload for its commit, atomically (across storage replicas): false when it is
 * gone (aborted) or another commit claimed it first.
 */
export async function claimUpload(ctx: StorageContext, u: UploadDoc): Promise<boolean> {
  const claimed = await ctx.repo.uploads.updateOne(
    { file_sid: u.file_sid, committing_since: { $exists: false } },
    { $set: { committing_since: new Date() } },
  );
  return claimed.matchedCount === 1;
}

/** The container an upload names, of the uploader's partner; a 422 naming `container_sid` otherwise. */
export async function uploadContainer(
  ctx: StorageContext,
  partnerSid: string,
  containerSid: string,
): Promise<ContainerDoc> {
  const c = await ctx.repo.containers.findOne({ container_sid: containerSid, partner_sid: partnerSid });
  if (!c) throw UnprocessableError.field('container_sid', 'container does not exist');
  return c;
}

/**
 * The pending upload `fileSid` of the caller: its own, or — for the operator (media.manage) — a
 * recording it is streaming into another partner's container. Anything else is not found.
 */
export async function pendingUploadOf(
  ctx: StorageContext,
  principal: Principal,
  fileSid: unknown,
): Promise<UploadDoc | null> {
  const u = await ctx.repo.uploads.findOne({ file_sid: String(fileSid) });
  if (!u) return null;
  return u.partner_sid === principal.partner_sid || (u.recording && principal.scopes.includes('media.manage'))
    ? u
    : null;
}

/** Removes a pending upload and its blob. */
export async function discardUpload(ctx: StorageContext, u: UploadDoc): Promise<void> {
  await deleteBlobOrRetryLater(ctx, u.blob_key);
  await ctx.repo.uploads.deleteOne({ file_sid: u.file_sid });
}

/** Removes uploads that never committed (the gateway or this service died mid-upload) and their blobs. */
export async function removeStaleUploads(ctx: StorageContext, olderThanMs: number): Promise<number> {
  const stale = await ctx.repo.uploads.find({ date_created: { $lt: new Date(Date.now() - olderThanMs) } });
  for (const u of stale) {
    // A commit that recorded its file and died before removing the upload: the bytes are the file's.
    const committed = await ctx.repo.files.findOne({ file_sid: u.file_sid }, { projection: { blob_key: 1 } });
    if (committed?.blob_key !== u.blob_key) await ctx.blobs.delete(u.blob_key);
    await ctx.repo.uploads.deleteOne({ file_sid: u.file_sid });
  }
  if (stale.length > 0) ctx.log.warn({ count: stale.length }, 'removed stale uploads');
  return stale.length;
}
