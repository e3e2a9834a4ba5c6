import { createHash } from 'node:crypto';
import {
  IDEMPOTENCY_KEY_HEADER,
  UnprocessableError,
  type Principal,
  type UploadIdempotency,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import type { FileDoc } from '../domain/documents';

/*
 * An upload's Idempotency-Key at the commit (decisions §48): the gateway keeps answers by key, but
 * an answer can be lost after the commit recorded the file (the gateway's wait for the commit timed
 * out, or the gateway died). The key is recorded on the file, so a commit repeated with it returns
 * that file instead of a second one.
 */

/** The key as stored: the partner that sent it and its key, hashed (fixed length, one unique index). */
export function scopedUploadKey(principal: Pick<Principal, 'partner_sid'>, key: string): string {
  return createHash('sha256').update(`${principal.partner_sid}\n${key}`).digest('hex');
}

/** The fields a file committed with this key carries. */
export function idempotencyFields(
  principal: Principal,
  idem: UploadIdempotency | undefined,
): Pick<FileDoc, 'idempotency_key' | 'idempotency_fingerprint' | 'idempotency_expires_at'> {
  if (!idem) return {};
  return {
    idempotency_key: scopedUploadKey(principal, idem.key),
    idempotency_fingerprint: idem.fingerprint,
    idempotency_expires_at: new Date(idem.expires_at),
  };
}

/**
 * The file an earlier commit with this key recorded (null: none, or its key has expired — then
 * forgotten here, so this commit may take it). The same key with another request is a 422 naming
 * Idempotency-Key, as the gateway answers it.
 */
export async function committedWithKey(
  ctx: StorageContext,
  principal: Principal,
  idem: UploadIdempotency,
): Promise<FileDoc | null> {
  const key = scopedUploadKey(principal, idem.key);
  const earlier = await ctx.repo.files.findOne({ idempotency_key: key });
  if (!earlier) return null;
  const until = earlier.idempotency_expires_at ? new Date(earlier.idempotency_expires_at) : new Date(0);
  if (until.getTime() <= Date.now()) {
    await ctx.repo.files.updateOne({ file_sid: earlier.file_sid, idempotency_key: key }, { $unset: KEY_FIELDS });
    return null;
  }
  if (earlier.idempotency_fingerprint !== idem.fingerprint)
    throw UnprocessableError.field(
      IDEMPOTENCY_KEY_HEADER,
      'this Idempotency-Key was used for a different upload; use a new key for a new request',
    );
  return earlier;
}

/**
 * At prepare: the file already committed under this key, if any (not expired). A retry of that
 * upload is then not refused for what its own file takes — its unique keys, its access name, its
 * bytes in the quota — since its commit will answer with that file (or a 422 if the request differs).
 */
export async function fileUnderKey(
  ctx: StorageContext,
  principal: Pick<Principal, 'partner_sid'>,
  key: string | undefined,
): Promise<FileDoc | null> {
  if (!key) return null;
  return ctx.repo.files.findOne({
    idempotency_key: scopedUploadKey(principal, key),
    idempotency_expires_at: { $gt: new Date() },
  });
}

const KEY_FIELDS = { idempotency_key: '', idempotency_fingerprint: '', idempotency_expires_at: '' };

/** Forgets the keys of files whose keys have expired (maintenance), so the keys may be used again. */
export async function forgetExpiredUploadKeys(ctx: StorageContext, now = new Date()): Promise<number> {
  const { modifiedCount } = await ctx.repo.files.updateMany(
    { idempotency_expires_at: { $lt: now } },
    { $unset: KEY_FIELDS },
  );
  return modifiedCount;
}
