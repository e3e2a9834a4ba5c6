import {
  cachePrefixOf,
  DuplicateKeyError,
  KEY_FIELDS,
  NO_KEYS,
  NotFoundError,
  Subjects,
  UnprocessableError,
  type FilePatch,
  type GatewayRequest,
  type KeyValues,
  type Opened,
  type PublicFile,
  type StoredFile,
} from '@patchbay/contracts';
import { changedFields, compareAndSet, reply } from '@patchbay/platform';
import { DEFAULT_LIMIT, applyFieldFilter, parseFieldParams, requestedLimit, runList } from '@patchbay/query';
import type { StorageContext } from '../context';
import { uniqueConflict, uniqueKey } from '../domain/container-rules';
import type { FileDoc } from '../domain/documents';
import { storedMimeType } from '../domain/file-doc';
import { checkSetAtCreation } from '../domain/file-update-rules';
import { FILE_LIST_SPEC } from '../domain/list-specs';
import { contentModified, serializeFile } from '../domain/serialize';
import { removeFile, setThresholdInclusion } from '../counters';
import { deleteBlobOrRetryLater } from './blob-deletions';

/** The fields a PATCH or PUT may change. */
const MUTABLE = [
  'name',
  'mime_type',
  'publish',
  'file_access_name',
  'threshold_include',
  'lifecycle_action',
  'lifecycle_ttl',
  ...KEY_FIELDS,
] as const;
type MutableFields = Partial<Pick<FileDoc, (typeof MUTABLE)[number]>>;

/** What a PUT sets that it leaves out: the key fields, unset. */
export const FILE_PUT_DEFAULTS: Readonly<KeyValues> = NO_KEYS;

/** `GET /storage/files`: a large page holds a slot of `ctx.lists` (429 or 503 past a partner's share or the total). */
export function listFiles(ctx: StorageContext, req: GatewayRequest, replied?: Promise<void>) {
  const partner = req.principal.partner_sid;
  return ctx.lists.run(partner, requestedLimit(req.query, DEFAULT_LIMIT), replied, () =>
    runList({
      collection: ctx.repo.files,
      baseFilter: { partner_sid: partner },
      query: req.query,
      spec: FILE_LIST_SPEC,
      url: req.url,
      serialize: (f: FileDoc) => serializeStored(ctx, f),
    }),
  );
}

/** GET one file, with `include_fields`/`exclude_fields` applied. */
export async function getFile(ctx: StorageContext, req: GatewayRequest): Promise<Record<string, unknown>> {
  const fields = parseFieldParams(req.query, FILE_LIST_SPEC);
  const f = await ownedFile(ctx, req.principal.partner_sid, req.params.file_sid);
  return applyFieldFilter(await serializeStored(ctx, f), fields.include, fields.exclude);
}

/**
 * PATCH or PUT of a file's mutable fields: a compare-and-set on its revision, so the values derived
 * from several fields (the unique key set, the expiry time) and the threshold counts move exactly
 * once per change, however many requests race.
 */
export async function updateFile(
  ctx: StorageContext,
  partnerSid: string,
  fileSid: string,
  body: FilePatch,
): Promise<StoredFile> {
  const { repo } = ctx;
  const sent: MutableFields = body;
  let uniqueKeyWritten: unknown;
  let result: { before: FileDoc; after: FileDoc };
  try {
    result = await compareAndSet(repo.files, { file_sid: String(fileSid), partner_sid: partnerSid }, (f) => {
      checkSetAtCreation(f, body);
      const next: FileDoc = { ...f };
      for (const key of MUTABLE) if (sent[key] !== undefined) Object.assign(next, { [key]: sent[key] });
      if (f.unique) next.unique_key = uniqueKey(f.container_sid, next);
      const expires = next.lifecycle_action === 'delete' && next.lifecycle_ttl >= 0;
      next.expires_at = expires ? new Date(new Date(f.date_created).getTime() + next.lifecycle_ttl * 1000) : undefined;
      const change = changedFields(f, next, [...MUTABLE, 'unique_key', 'expires_at']);
      if (!change) return null;
      uniqueKeyWritten = change.$set?.unique_key;
      return { ...change, $set: { ...change.$set, date_modified: new Date() } };
    });
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const dup =
      uniqueKeyWritten !== undefined
        ? await repo.files.findOne({ unique_key: uniqueKeyWritten, file_sid: { $ne: String(fileSid) } })
        : null;
    if (dup) throw uniqueConflict(dup.file_sid, 'file');
    throw UnprocessableError.field('file_access_name', 'file_access_name is already in use');
  }
  const { before, after } = result;
  if (after === before) return serializeStored(ctx, after);
  if (after.threshold_include !== before.threshold_include)
    await setThresholdInclusion(repo, after.container_sid, after.file_bytes, after.threshold_include);
  await ctx.bus.publish(Subjects.events.fileUpdated, {
    file_sid: after.file_sid,
    partner_sid: after.partner_sid,
    file_access_name: before.file_access_name,
  });
  return serializeStored(ctx, after);
}

/** DELETE by the API: the caller's own file. */
export async function deleteOwnedFile(ctx: StorageContext, partnerSid: string, fileSid: string) {
  await deleteFile(ctx, await ownedFile(ctx, partnerSid, fileSid));
  return reply(204, null);
}

/**
 * Deletes a file: the record first (so nothing can read it any more), then its counts, its blob
 * and every cached transcoded copy. Used by the API, the LRU sweep and lifecycle expiry.
 */
export async function deleteFile(ctx: StorageContext, f: FileDoc): Promise<boolean> {
  const { blobs } = ctx;
  if ((await ctx.repo.files.deleteOne({ file_sid: f.file_sid })) === 0) return false;
  await removeFile(ctx.repo, f.container_sid, f.file_bytes, f.threshold_include);
  await deleteBlobOrRetryLater(ctx, f.blob_key);
  if (blobs.list) for await (const key of blobs.list(cachePrefixOf(f.file_sid))) await blobs.delete(key);
  await ctx.repo.copies.deleteMany({ file_sid: f.file_sid });
  await ctx.bus.publish(Subjects.events.fileDeleted, {
    file_sid: f.file_sid,
    partner_sid: f.partner_sid,
    container_sid: f.container_sid,
    file_access_name: f.file_access_name,
  });
  ctx.log.info({ file_sid: f.file_sid, container_sid: f.container_sid }, 'file deleted');
  return true;
}

/** Download by SID: what to stream; the read counts as an access (`date_last_accessed`). */
export async function fileForDownload(ctx: StorageContext, partnerSid: string, fileSid: string): Promise<Opened> {
  const f = await ctx.repo.files.findOneAndUpdate(
    { file_sid: String(fileSid), partner_sid: partnerSid },
    { $set: { date_last_accessed: new Date() } },
  );
  if (!f) throw new NotFoundError();
  return {
    blob_key: f.blob_key,
    file_bytes: f.file_bytes,
    mime_type: storedMimeType(f),
    name: f.name,
    file_access_name: f.file_access_name,
  };
}

/** The public file server's `/f/<id>`: a file published under that id (its SID or access name), or 404. */
export async function resolvePublicFile(ctx: StorageContext, id: string): Promise<PublicFile> {
  const { repo } = ctx;
  const f =
    (await repo.files.findOne({ file_sid: id, publish: 'file_sid' })) ??
    (await repo.files.findOne({ file_access_name: id, publish: 'file_access_name' }));
  if (!f || !(await allowPublish(ctx, f.container_sid))) throw new NotFoundError({ message: 'Not Found' });
  return {
    file_sid: f.file_sid,
    blob_key: f.blob_key,
    file_bytes: f.file_bytes,
    mime_type: storedMimeType(f),
    name: f.name,
    file_access_name: f.file_access_name,
    ...(f.encryption ? { encrypted: true } : {}),
    content_format: f.content_format,
    content_bitrate: f.content_bitrate ?? null,
    last_modified: contentModified(f).toISOString(),
  };
}

async function ownedFile(ctx: StorageContext, partnerSid: string, fileSid: string): Promise<FileDoc> {
  const f = await ctx.repo.files.findOne({ file_sid: String(fileSid), partner_sid: partnerSid });
  if (!f) throw new NotFoundError();
  return f;
}

async function allowPublish(ctx: StorageContext, containerSid: string): Promise<boolean> {
  return (await ctx.repo.containers.findOne({ container_sid: containerSid }))?.allow_publish ?? true;
}

async function serializeStored(ctx: StorageContext, f: FileDoc): Promise<StoredFile> {
  return serializeFile(f, ctx.storageUrl, await allowPublish(ctx, f.container_sid));
}
