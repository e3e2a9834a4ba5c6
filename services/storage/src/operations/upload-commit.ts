import {
  BadRequestError,
  DuplicateKeyError,
  NotFoundError,
  Subjects,
  UnavailableError,
  UnprocessableError,
  type ProbeReply,
  type UploadCommitRequest,
} from '@patchbay/contracts';
import { reply } from '@patchbay/platform';
import type { StorageContext } from '../context';
import { uniqueConflict } from '../domain/container-rules';
import type { FileDoc, FileEncryptionDoc, UploadDoc } from '../domain/documents';
import { newFileDoc } from '../domain/file-doc';
import { checkClassification, describeContent } from '../domain/file-fields';
import { checkRecordingLength } from '../domain/media-rules';
import { isMediaMime } from '../domain/probe-retry';
import { serializeFile } from '../domain/serialize';
import { planTranscoding, transcodingJob } from '../domain/transcoding-plan';
import { addFile, removeFile } from '../counters';
import { deleteBlobOrRetryLater } from './blob-deletions';
import { containerRecipients } from './encryption-keys';
import { describeNewMedia, probeMedia, queuedProbeDue } from './media-probe';
import { planUploadTranscoding, sealedTranscode } from './transcoding';
import { claimUpload, discardUpload, pendingUploadOf, uploadContainer } from './uploads';
import { committedWithKey, idempotencyFields } from './upload-idempotency';
import { scheduleVoicemailCallback } from './voicemail-callbacks';

/**
 * The commit of an upload (uploads.ts has the prepare): re-checks atomically with the real size and
 * content, and either records the File (counted, probed or queued for its upload-time transcoding,
 * announced by `evt.file.created`, a recording's Voicemail callback handed over) or removes the blob.
 */
export async function commitUpload(ctx: StorageContext, req: UploadCommitRequest) {
  const { repo } = ctx;
  const u = await pendingUploadOf(ctx, req.principal, req.file_sid);
  if (!u) throw new NotFoundError({ code: 'upload_not_found' });
  const f = u.fields;
  if (u.reserved || !f) throw BadRequestError.field('file_object', 'the upload has no File fields (file_object) yet');
  let size = Number(req.size);
  if (!Number.isInteger(size) || size < 0) throw BadRequestError.field('size', 'invalid size');
  // From here this commit alone records or discards the upload (an abort meanwhile leaves it alone).
  if (!(await claimUpload(ctx, u))) throw new NotFoundError({ code: 'upload_not_found' });
  // Results of a transcoding within this request (encrypted uploads), removed if the commit fails.
  const extraBlobs: string[] = [];
  // Once the File is recorded its bytes are the file's: a step after that which fails (the bus down for
  // the event or the transcoding job) is answered as an error, never by removing them (a retry with the
  // Idempotency-Key answers the file, and finishes what the first commit could not).
  let recorded = false;
  try {
    // Committed already under this Idempotency-Key (its answer was lost): that file, not a second one.
    const earlier = req.idempotency ? await committedWithKey(ctx, req.principal, req.idempotency) : null;
    if (earlier) return await answerEarlier(ctx, u, earlier, extraBlobs);
    const sealedKeys = u.encryption_key_sids ?? [];
    // The gateway encrypts when prepare said so; bytes stored otherwise are never recorded.
    if (sealedKeys.length > 0 !== Boolean(req.encryption))
      throw new UnavailableError({ message: 'the upload was not stored as its container requires; try again' });
    const sealed = req.encryption ? { ...req.encryption, sids: sealedKeys } : null;
    const fileKey = sealed?.file_key;
    const c = await uploadContainer(ctx, u.partner_sid, u.container_sid);
    const content = describeContent(f, Buffer.from(String(req.head ?? ''), 'base64'));
    checkClassification(c, content.classification);
    const { plan, probed: planned } = await planUploadTranscoding(ctx, f, u.blob_key, content.format, fileKey);
    const source = { blob_key: u.blob_key, content_format: content.format };
    // A recording must be audio too: find out before anything is recorded (an upload to transcode was probed just
    // above).
    let probed: ProbeReply | null = planned ?? (u.recording ? await probeMedia(ctx, source, undefined, fileKey) : null);
    if (probed && probed.duration === null)
      throw UnprocessableError.field('data', 'the recording is not decodable audio');
    if (probed) checkRecordingLength(u.recording?.max_duration, probed.duration);
    // Encrypted: the plaintext is probed now, within this request (the file key is not kept for later).
    if (sealed && !probed && isMediaMime(content.mimeType))
      probed = await probeMedia(ctx, source, undefined, fileKey).catch(() => null);
    let blobKey = u.blob_key;
    let described = { format: probed?.format ?? content.format, mime: content.mimeType };
    let encryption: FileEncryptionDoc | null = sealed
      ? {
          format: 'age-v1',
          encryption_key_sids: sealed.sids,
          header_bytes: sealed.header_bytes,
          plaintext_bytes: sealed.plaintext_bytes,
        }
      : null;
    let transcodedNow = false;
    if (sealed && encryption && plan) {
      // Transcoded here, not by the durable job: the file key must not outlive this request.
      const recipients = await containerRecipients(ctx, {
        partner_sid: u.partner_sid,
        encryption_key_sids: sealedKeys,
      });
      const result = await sealedTranscode(ctx, u, plan, content.format, sealed.file_key, recipients);
      extraBlobs.push(result.blob_key);
      blobKey = result.blob_key;
      size = result.file_bytes;
      encryption = { ...encryption, plaintext_bytes: result.plaintext_bytes, header_bytes: result.header_bytes };
      described = { format: result.content_format, mime: result.mime_type };
      probed = { format: result.content_format, duration: result.content_duration, bitrate: result.content_bitrate };
      transcodedNow = true;
    }
    // Probed after it is recorded; its durable probe first, so a probe that fails or a commit that dies is retried.
    const probeAfter = !plan && !probed && !sealed && isMediaMime(described.mime);
    if (probeAfter) await ctx.probes.schedule(u.file_sid, queuedProbeDue(ctx));
    await addFile(repo, c, size, f.threshold_include);
    const doc: FileDoc = {
      ...idempotencyFields(req.principal, req.idempotency),
      ...newFileDoc({
        upload: { ...u, fields: f },
        blob_key: blobKey,
        bytes: size,
        classification: content.classification,
        sniffed_mime: content.mimeType,
        mime_type: described.mime,
        format: described.format,
        probed,
        plan,
        transcoded: transcodedNow,
        encryption,
        now: new Date(),
      }),
    };
    try {
      await repo.files.insertOne(doc);
    } catch (err) {
      await removeFile(repo, c.container_sid, size, f.threshold_include);
      if (err instanceof DuplicateKeyError) {
        // Another commit with the same Idempotency-Key got there first.
        const raced = req.idempotency ? await committedWithKey(ctx, req.principal, req.idempotency) : null;
        if (raced) return await answerEarlier(ctx, u, raced, extraBlobs);
        const dup = doc.unique_key ? await repo.files.findOne({ unique_key: doc.unique_key }) : null;
        if (dup) throw uniqueConflict(dup.file_sid, 'file');
        throw UnprocessableError.field('file_access_name', 'file_access_name is already in use');
      }
      throw err;
    }
    recorded = true;
    await repo.uploads.deleteOne({ file_sid: u.file_sid });
    // The upload's own blob was replaced by its encrypted transcoding.
    if (transcodedNow) await deleteBlobOrRetryLater(ctx, u.blob_key);
    if (plan && !transcodedNow)
      await ctx.bus.enqueue(Subjects.transcoder.uploadJob, transcodingJob(doc, plan), {
        msgId: `transcode-${doc.file_sid}`,
      });
    else if (probeAfter) await describeNewMedia(ctx, doc);
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
    if (recorded) {
      await repo.uploads.deleteOne({ file_sid: u.file_sid }).catch(() => undefined);
      ctx.log.warn(
        { file_sid: u.file_sid, err: err instanceof Error ? err.message : String(err) },
        'file stored, but a step after it failed: answered as an error; a retry with its Idempotency-Key finishes it',
      );
      throw err;
    }
    for (const key of extraBlobs) await deleteBlobOrRetryLater(ctx, key);
    await discardUpload(ctx, u);
    throw err;
  }
}

/** A commit that finds its file committed already: these bytes go, and the answer is that file's (201, as then). */
async function answerEarlier(ctx: StorageContext, u: UploadDoc, earlier: FileDoc, extraBlobs: string[]) {
  for (const key of extraBlobs) await deleteBlobOrRetryLater(ctx, key);
  await discardUpload(ctx, u);
  // What the first commit may not have finished (its answer was lost to the same fault): the
  // transcoding job again (the same message ID: never run twice) and the event.
  await finishCommitted(ctx, earlier);
  const c = await ctx.repo.containers.findOne({ container_sid: earlier.container_sid });
  ctx.log.info(
    { file_sid: earlier.file_sid, discarded: u.file_sid },
    'upload committed before under its Idempotency-Key: that file is the answer',
  );
  return reply(201, serializeFile(earlier, ctx.storageUrl, c?.allow_publish ?? false));
}

/** Enqueues the committed file's upload-time transcoding again if it still waits, and announces the file. */
async function finishCommitted(ctx: StorageContext, f: FileDoc): Promise<void> {
  const waiting = f.content_transcoding_progress !== null && f.content_transcoding_progress < 100;
  let plan = null;
  try {
    plan = waiting ? planTranscoding(f, { format: f.content_format, bitrate: f.content_bitrate ?? null }) : null;
  } catch {
    // A plan that no longer holds: the periodic upkeep gives the record its data back (requeueUnfinishedTranscoding).
  }
  if (plan)
    await ctx.bus.enqueue(Subjects.transcoder.uploadJob, transcodingJob(f, plan), { msgId: `transcode-${f.file_sid}` });
  await ctx.bus.publish(Subjects.events.fileCreated, {
    file_sid: f.file_sid,
    partner_sid: f.partner_sid,
    container_sid: f.container_sid,
  });
}
