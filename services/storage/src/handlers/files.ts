import {
  cachePrefixOf,
  type PublicFile,
  DuplicateKeyError,
  NotFoundError,
  Subjects,
  UnprocessableError,
  compileValidator,
  FilePatchSchema,
  FilePutSchema,
  type GatewayRequest,
  type Principal,
} from '@patchbay/contracts';
import { changedFields, compareAndSet, reply, type BlobStore } from '@patchbay/platform';
import { parseFieldParams, applyFieldFilter, runList } from '@patchbay/query';
import { uniqueKey } from '../domain/container-rules';
import { removeFile, setThresholdInclusion } from '../counters';
import type { FileDoc } from '../repo';
import { contentModified, serializeFile } from '../serialize';
import { FILE_LIST_SPEC } from '../list-specs';
import { uniqueConflict } from './containers';
import type { StorageContext } from './context';
import { deleteBlobOrRetryLater } from '../blob-deletions';

const validatePatch = compileValidator(FilePatchSchema);
const validatePut = compileValidator(FilePutSchema);
const MUTABLE = [
  'name',
  'mime_type',
  'publish',
  'file_access_name',
  'threshold_include',
  'lifecycle_action',
  'lifecycle_ttl',
  'integer_key_1',
  'integer_key_2',
  'string_key_1',
  'string_key_2',
  'string_key_3',
  'string_key_4',
] as const;
const PUT_DEFAULTS = {
  integer_key_1: null,
  integer_key_2: null,
  string_key_1: null,
  string_key_2: null,
  string_key_3: null,
  string_key_4: null,
};

export function fileHandlers(ctx: StorageContext, blobs: BlobStore) {
  const { repo } = ctx;

  async function allowPublish(containerSid: string): Promise<boolean> {
    return (await repo.containers.findOne({ container_sid: containerSid }))?.allow_publish ?? true;
  }
  const serialize = async (f: FileDoc) => serializeFile(f, ctx.storageUrl, await allowPublish(f.container_sid));

  async function owned(p: Principal, fileSid: string): Promise<FileDoc> {
    const f = await repo.files.findOne({ file_sid: String(fileSid), partner_sid: p.partner_sid });
    if (!f) throw new NotFoundError();
    return f;
  }

  /**
   * PATCH or PUT of a file's mutable fields: a compare-and-set on its revision, so the values derived
   * from several fields (the unique key set, the expiry time) and the threshold counts move exactly
   * once per change, however many requests race.
   */
  async function update(req: GatewayRequest, body: Record<string, unknown>) {
    let uniqueKeyWritten: unknown;
    let result: { before: FileDoc; after: FileDoc };
    try {
      result = await compareAndSet(
        repo.files,
        { file_sid: String(req.params.file_sid), partner_sid: req.principal.partner_sid },
        (f) => {
          const next: Record<string, unknown> = { ...f };
          for (const key of MUTABLE) if (body[key] !== undefined) next[key] = body[key];
          if (f.unique) next.unique_key = uniqueKey(f.container_sid, next as FileDoc);
          const expires = next.lifecycle_action === 'delete' && (next.lifecycle_ttl as number) >= 0;
          next.expires_at = expires
            ? new Date(new Date(f.date_created).getTime() + (next.lifecycle_ttl as number) * 1000)
            : undefined;
          const change = changedFields(f, next, [...MUTABLE, 'unique_key', 'expires_at']);
          if (!change) return null;
          uniqueKeyWritten = change.$set?.unique_key;
          return { ...change, $set: { ...change.$set, date_modified: new Date() } };
        },
      );
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const dup =
        uniqueKeyWritten !== undefined
          ? await repo.files.findOne({ unique_key: uniqueKeyWritten, file_sid: { $ne: String(req.params.file_sid) } })
          : null;
      if (dup) throw uniqueConflict(dup.file_sid, 'file');
      throw UnprocessableError.field('file_access_name', 'file_access_name is already in use');
    }
    const { before, after } = result;
    if (after === before) return serialize(after);
    if (after.threshold_include !== before.threshold_include)
      await setThresholdInclusion(repo, after.container_sid, after.file_bytes, after.threshold_include);
    await ctx.bus.publish(Subjects.events.fileUpdated, {
      file_sid: after.file_sid,
      partner_sid: after.partner_sid,
      file_access_name: before.file_access_name,
    });
    return serialize(after);
  }

  return {
    [Subjects.storage.fileList]: async (req: GatewayRequest) => {
      return runList({
        collection: repo.files,
        baseFilter: { partner_sid: req.principal.partner_sid },
        query: req.query,
        spec: FILE_LIST_SPEC,
        url: req.url,
        serialize,
      });
    },
    [Subjects.storage.fileGet]: async (req: GatewayRequest) => {
      const fields = parseFieldParams(req.query, FILE_LIST_SPEC);
      return applyFieldFilter(
        await serialize(await owned(req.principal, req.params.file_sid)),
        fields.include,
        fields.exclude,
      );
    },
    [Subjects.storage.fileUpdate]: async (req: GatewayRequest) => {
      return update(req, validatePatch(req.body ?? {}));
    },
    [Subjects.storage.fileReplace]: async (req: GatewayRequest) => {
      return update(req, { ...PUT_DEFAULTS, ...validatePut(req.body ?? {}) });
    },
    [Subjects.storage.fileDelete]: async (req: GatewayRequest) => {
      const f = await owned(req.principal, req.params.file_sid);
      await deleteFile(ctx, blobs, f);
      return reply(204, null);
    },
    [Subjects.storage.fileOpen]: async (req: GatewayRequest) => {
      const f = await repo.files.findOneAndUpdate(
        { file_sid: String(req.params.file_sid), partner_sid: req.principal.partner_sid },
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
    },
    [Subjects.storage.fileResolvePublic]: async ({ id }: { id: string }): Promise<PublicFile> => {
      const f =
        (await repo.files.findOne({ file_sid: id, publish: 'file_sid' })) ??
        (await repo.files.findOne({ file_access_name: id, publish: 'file_access_name' }));
      if (!f || !(await allowPublish(f.container_sid))) throw new NotFoundError('Not Found');
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
    },
  };
}

/**
 * Deletes a file: the record first (so nothing can open it any more), then its counts, its blob
 * and every cached transcoded copy. Used by the API, the threshold sweep and lifecycle expiry.
 */
export async function deleteFile(ctx: StorageContext, blobs: BlobStore, f: FileDoc): Promise<boolean> {
  if ((await ctx.repo.files.deleteOne({ file_sid: f.file_sid })) === 0) return false;
  await removeFile(ctx.repo, f.container_sid, f.file_bytes, f.threshold_include);
  await deleteBlobOrRetryLater(ctx, blobs, f.blob_key);
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

/** What the stored bytes are: an encrypted file is served as the age file it is, not as its plaintext's type. */
function storedMimeType(f: FileDoc): string {
  return f.encryption ? 'application/octet-stream' : f.mime_type;
}
