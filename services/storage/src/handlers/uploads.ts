import { randomUUID } from 'node:crypto';
import {
  externalBlobKey,
  fileBlobKey,
  BadRequestError,
  DuplicateKeyError,
  NotFoundError,
  Subjects,
  UnavailableError,
  UnprocessableError,
  compileValidator,
  FileUploadSchema,
  type Principal,
  type Prepared,
  type UploadAbortRequest,
  type UploadCommitRequest,
  type UploadPrepareRequest,
  type UploadReserveRequest,
} from '@patchbay/contracts';
import { reply, type BlobStore } from '@patchbay/platform';
import { deleteBlobOrRetryLater } from '../blob-deletions';
import { currentStoreId } from '../external-stores';
import { uniqueKey } from '../domain/container-rules';
import {
  checkClassification,
  declaredClassification,
  defaultAccessName,
  describeContent,
  uploadFields,
  type UploadFields,
} from '../domain/file-fields';
import { extensionForMime } from '../domain/classify';
import type { RecordingOrigin } from '../domain/recording-origin';
import { scheduleVoicemailCallback } from '../callbacks';
import { addFile, refuseIfFull, removeFile } from '../counters';
import type { ContainerDoc, FileDoc, UploadDoc } from '../repo';
import { serializeFile } from '../serialize';
import { uniqueConflict } from './containers';
import { planUploadTranscoding, sealedTranscode, transcodingJob } from './transcoding';
import { containerRecipients } from './encryption-keys';
import { probeFile, probeMedia } from '../probe';
import type { StorageContext } from './context';

const validateJson = compileValidator(FileUploadSchema);

const DATA_FIRST_ENCRYPTED =
  'file_object must come before data for a partner with encrypted ' +
  'containers, so that the data is encrypted as it arrives';

const isMediaType = (mime: string) => mime.startsWith('audio/') || mime.startsWith('video/');
const validateQuery = compileValidator(FileUploadSchema, { fromStrings: true });

/** Where an upload's bytes go (messages/storage.ts). */
export type PrepareReply = Prepared;

interface PendingUpload extends UploadDoc {
  fields: UploadFields;
  recording?: RecordingOrigin;
  /** The container's keys at prepare: the bytes were to be encrypted to these (decisions §43). */
  encryption_key_sids?: string[];
}

/**
 * Refuses what the request alone already breaks — classification, unique key set, access name,
 * a full container — and records the pending upload (so a crash between prepare and commit leaves
 * nothing behind after the stale-upload sweep). Shared by API uploads and recordings.
 */
export async function openPendingUpload(
  ctx: StorageContext,
  c: ContainerDoc,
  fields: UploadFields,
  recording?: RecordingOrigin,
  reserved?: { file_sid: string; size: number },
): Promise<PrepareReply> {
  const { repo } = ctx;
  const declared = declaredClassification(fields);
  if (declared) checkClassification(c, declared);
  const dup = fields.unique ? await repo.files.findOne({ unique_key: uniqueKey(c.container_sid, fields) }) : null;
  if (dup) throw uniqueConflict(dup.file_sid, 'file');
  if (fields.file_access_name && (await repo.files.findOne({ file_access_name: fields.file_access_name })))
    throw UnprocessableError.field('file_access_name', 'file_access_name is already in use');
  // External containers have no space limits; their blobs go to the container's storage (decisions §29).
  const external = c.type !== 'internal';
  if (!external) refuseIfFull(c, reserved?.size ?? 0, fields.threshold_include);
  if (reserved) {
    // Refused at reserve already (the partner had no encrypted container then): a container named since must not
    // take bytes stored as they came.
    if ((c.encryption_key_sids ?? []).length > 0) throw UnprocessableError.field('file_object', DATA_FIRST_ENCRYPTED);
    // The bytes are in already (under the key reserved for them): the upload gets its container and fields.
    const attached = await repo.uploads.findOneAndUpdate(
      { file_sid: reserved.file_sid, partner_sid: c.partner_sid, reserved: true },
      { $set: { container_sid: c.container_sid, fields, reserved: false } },
    );
    if (!attached) throw new NotFoundError('upload not found');
    return {
      file_sid: attached.file_sid,
      blob_key: attached.blob_key,
      max_bytes: Math.max(0, c.quota_bytes - c.total_bytes),
    };
  }
  const fileSid = randomUUID();
  const key = fileBlobKey(c.partner_sid, fileSid);
  const keys = await containerRecipients(ctx, c);
  const upload: PendingUpload = {
    file_sid: fileSid,
    partner_sid: c.partner_sid,
    container_sid: c.container_sid,
    blob_key: external ? externalBlobKey(await currentStoreId(ctx, c), key) : key,
    date_created: new Date(),
    fields,
    ...(recording ? { recording } : {}),
    ...(keys.sids.length > 0 ? { encryption_key_sids: keys.sids } : {}),
  };
  await repo.uploads.insertOne(upload);
  return {
    file_sid: fileSid,
    blob_key: upload.blob_key,
    max_bytes: external ? Number.MAX_SAFE_INTEGER : Math.max(0, c.quota_bytes - c.total_bytes),
    ...(keys.sids.length > 0 ? { encrypt_to: keys.public_keys } : {}),
  };
}

/**
 * Upload in two steps around the byte stream (README, Architecture): prepare refuses what the
 * request alone already breaks, before any byte moves; commit re-checks atomically with the real
 * size and content, and either records the File or removes the blob. A pending upload is recorded
 * so a crash between the two leaves nothing behind after the stale-upload sweep.
 */
export function uploadHandlers(ctx: StorageContext, blobs: BlobStore) {
  const { repo } = ctx;

  async function containerFor(partnerSid: string, containerSid: string): Promise<ContainerDoc> {
    const c = await repo.containers.findOne({ container_sid: containerSid, partner_sid: partnerSid });
    if (!c) throw UnprocessableError.field('container_sid', 'container does not exist');
    return c;
  }

  /**
   * The pending upload `fileSid` of the caller: its own, or — for the operator (media.manage) — a
   * recording it is streaming into another partner's container. Anything else is not found.
   */
  async function pendingOf(principal: Principal, fileSid: unknown): Promise<PendingUpload | null> {
    const u = (await repo.uploads.findOne({ file_sid: String(fileSid) })) as PendingUpload | null;
    if (!u) return null;
    return u.partner_sid === principal.partner_sid || (u.recording && principal.scopes.includes('media.manage'))
      ? u
      : null;
  }

  async function discard(u: UploadDoc): Promise<void> {
    await deleteBlobOrRetryLater(ctx, blobs, u.blob_key);
    await repo.uploads.deleteOne({ file_sid: u.file_sid });
  }

  return {
    [Subjects.storage.uploadPrepare]: async (req: UploadPrepareRequest): Promise<PrepareReply> => {
      const input = (req.source === 'query' ? validateQuery : validateJson)(req.fields ?? {});
      const c = await containerFor(req.principal.partner_sid, input.container_sid);
      if (c.type !== 'internal')
        throw UnprocessableError.field(
          'container_sid',
          'files cannot be uploaded through the API to an external container',
        );
      return openPendingUpload(ctx, c, uploadFields(input, c), undefined, req.reserved);
    },

    [Subjects.storage.uploadReserve]: async ({ principal }: UploadReserveRequest): Promise<PrepareReply> => {
      // The container is not known yet: the bytes may fill the roomiest one; prepare checks the real one.
      const containers = await repo.containers.find({ partner_sid: principal.partner_sid, type: 'internal' });
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
      await repo.uploads.insertOne(upload);
      return { file_sid: fileSid, blob_key: upload.blob_key, max_bytes: room };
    },

    [Subjects.storage.uploadCommit]: async (req: UploadCommitRequest) => {
      const u = await pendingOf(req.principal, req.file_sid);
      if (!u) throw new NotFoundError('upload not found');
      if (u.reserved || !u.fields)
        throw BadRequestError.field('file_object', 'the upload has no File fields (file_object) yet');
      let size = Number(req.size);
      if (!Number.isInteger(size) || size < 0) throw BadRequestError.field('size', 'invalid size');
      // Results of a transcoding within this request (encrypted uploads), removed if the commit fails.
      const extraBlobs: string[] = [];
      try {
        const sealedKeys = u.encryption_key_sids ?? [];
        // The gateway encrypts when prepare said so; bytes stored otherwise are never recorded.
        if (sealedKeys.length > 0 !== Boolean(req.encryption))
          throw new UnavailableError('the upload was not stored as its container requires; try again');
        const sealed = req.encryption ? { ...req.encryption, sids: sealedKeys } : null;
        const fileKey = sealed?.file_key;
        const c = await containerFor(u.partner_sid, u.container_sid);
        const f = u.fields;
        const content = describeContent(f, Buffer.from(String(req.head ?? ''), 'base64'));
        checkClassification(c, content.classification);
        const { plan, probed: planned } = await planUploadTranscoding(ctx, f, u.blob_key, content.format, fileKey);
        // A recording must be audio too: find out before anything is recorded (an upload to transcode was probed just
        // above).
        let probed =
          planned ??
          (u.recording
            ? await probeMedia(ctx, { blob_key: u.blob_key, content_format: content.format }, undefined, fileKey)
            : null);
        if (probed && probed.duration === null)
          throw UnprocessableError.field('data', 'the recording is not decodable audio');
        // Encrypted: the plaintext is probed now, within this request (the file key is not kept for later).
        if (sealed && !probed && isMediaType(content.mimeType))
          probed = await probeMedia(
            ctx,
            { blob_key: u.blob_key, content_format: content.format },
            undefined,
            fileKey,
          ).catch(() => null);
        let blobKey = u.blob_key;
        let described = { format: probed?.format ?? content.format, mime: content.mimeType };
        let plaintextBytes = sealed?.plaintext_bytes ?? 0;
        let headerBytes = sealed?.header_bytes ?? 0;
        let transcodedNow = false;
        if (sealed && plan) {
          // Transcoded here, not by the durable job: the file key must not outlive this request.
          const result = await sealedTranscode(
            ctx,
            u,
            plan,
            content.format,
            sealed.file_key,
            await containerRecipients(ctx, { partner_sid: u.partner_sid, encryption_key_sids: sealedKeys }),
          );
          extraBlobs.push(result.blob_key);
          blobKey = result.blob_key;
          size = result.file_bytes;
          plaintextBytes = result.plaintext_bytes;
          headerBytes = result.header_bytes;
          described = { format: result.content_format, mime: result.mime_type };
          probed = {
            format: result.content_format,
            duration: result.content_duration,
            bitrate: result.content_bitrate,
          };
          transcodedNow = true;
        }
        await addFile(repo, c, size, f.threshold_include);
        const now = new Date();
        const doc: FileDoc = {
          file_sid: u.file_sid,
          partner_sid: u.partner_sid,
          container_sid: u.container_sid,
          blob_key: blobKey,
          name: u.recording && !f.given_name ? recordingName(u.recording, u.file_sid, content.mimeType) : f.name,
          mime_type: described.mime,
          type: f.type,
          content_classification: content.classification,
          content_format: described.format,
          content_duration: probed?.duration ?? null,
          content_bitrate: probed?.bitrate ?? null,
          content_transcoding_progress: plan ? (transcodedNow ? 100 : 0) : null,
          desired_format: f.desired_format,
          desired_bitrate: f.desired_bitrate,
          // Named after the format it will have: the publish_uri returned now stays valid after transcoding.
          file_access_name:
            f.file_access_name ??
            (plan
              ? `${u.file_sid}.${plan.target}`
              : defaultAccessName(u.file_sid, f.given_name ? f.name : undefined, content.mimeType)),
          file_bytes: size,
          publish: f.publish,
          threshold_include: f.threshold_include,
          lifecycle_action: f.lifecycle_action,
          lifecycle_ttl: f.lifecycle_ttl,
          unique: f.unique,
          ...(f.unique ? { unique_key: uniqueKey(u.container_sid, f) } : {}),
          parent_file_sid: null,
          integer_key_1: f.integer_key_1,
          integer_key_2: f.integer_key_2,
          string_key_1: f.string_key_1,
          string_key_2: f.string_key_2,
          string_key_3: f.string_key_3,
          string_key_4: f.string_key_4,
          date_created: now,
          date_modified: now,
          date_last_accessed: now,
          date_content_modified: now,
          encryption: sealed
            ? {
                format: 'age-v1',
                encryption_key_sids: sealed.sids,
                header_bytes: headerBytes,
                plaintext_bytes: plaintextBytes,
              }
            : null,
          ...(f.lifecycle_action === 'delete' && f.lifecycle_ttl >= 0
            ? { expires_at: new Date(now.getTime() + f.lifecycle_ttl * 1000) }
            : {}),
        };
        try {
          await repo.files.insertOne(doc);
        } catch (err) {
          await removeFile(repo, c.container_sid, size, f.threshold_include);
          if (err instanceof DuplicateKeyError) {
            const dup = doc.unique_key ? await repo.files.findOne({ unique_key: doc.unique_key }) : null;
            if (dup) throw uniqueConflict(dup.file_sid, 'file');
            throw UnprocessableError.field('file_access_name', 'file_access_name is already in use');
          }
          throw err;
        }
        await repo.uploads.deleteOne({ file_sid: u.file_sid });
        // The upload's own blob was replaced by its encrypted transcoding.
        if (transcodedNow) await deleteBlobOrRetryLater(ctx, blobs, u.blob_key);
        if (plan && !transcodedNow)
          await ctx.bus.enqueue(Subjects.transcoder.uploadJob, transcodingJob(doc, plan), {
            msgId: `transcode-${doc.file_sid}`,
          });
        else if (!probed && !sealed) await probeFile(ctx, doc);
        const stored = (await repo.files.findOne({ file_sid: doc.file_sid })) ?? doc;
        await ctx.bus.publish(Subjects.events.fileCreated, {
          file_sid: doc.file_sid,
          partner_sid: doc.partner_sid,
          container_sid: doc.container_sid,
        });
        ctx.log.info(
          {
            file_sid: doc.file_sid,
            container_sid: doc.container_sid,
            bytes: size,
            ...(u.recording ? { endpoint_sid: u.recording.endpoint_sid } : {}),
          },
          u.recording ? 'recording stored' : 'file stored',
        );
        const file = serializeFile(stored, ctx.storageUrl, c.allow_publish);
        if (u.recording?.endpoint_type === 'voicemail') await scheduleVoicemailCallback(ctx, u.recording, file);
        return reply(201, file);
      } catch (err) {
        for (const key of extraBlobs) await deleteBlobOrRetryLater(ctx, blobs, key);
        await discard(u);
        throw err;
      }
    },

    [Subjects.storage.uploadAbort]: async (req: UploadAbortRequest) => {
      const u = await pendingOf(req.principal, req.file_sid);
      if (u) await discard(u);
      return { aborted: Boolean(u) };
    },
  };
}

/** Removes uploads that never committed (the gateway or this service died mid-upload) and their blobs. */
export async function sweepStaleUploads(ctx: StorageContext, blobs: BlobStore, olderThanMs: number): Promise<number> {
  const stale = await ctx.repo.uploads.find({ date_created: { $lt: new Date(Date.now() - olderThanMs) } });
  for (const u of stale) {
    await blobs.delete(u.blob_key);
    await ctx.repo.uploads.deleteOne({ file_sid: u.file_sid });
  }
  if (stale.length > 0) ctx.log.warn({ count: stale.length }, 'removed stale uploads');
  return stale.length;
}

/** A recording's default name: `<call_sid or file_sid>.<ext>` (docs/interface-notes.md, Media plane). */
function recordingName(r: RecordingOrigin, fileSid: string, mimeType: string): string {
  const ext = extensionForMime(mimeType);
  return `${r.call_sid ?? fileSid}${ext ? `.${ext}` : ''}`;
}
