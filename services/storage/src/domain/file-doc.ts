import { keyValuesOf, type Classification, type ProbeReply } from '@patchbay/contracts';
import { extensionForMime } from './classify';
import { uniqueKey } from './container-rules';
import type { FileDoc, FileEncryptionDoc, UploadDoc, UploadFields } from './documents';
import { defaultAccessName } from './file-fields';
import type { RecordingOrigin } from './recording-origin';
import type { TranscodingPlan } from './transcoding-plan';

/** What a committed upload is, once its content is known (operations/upload-commit.ts). */
export interface CommittedUpload {
  upload: Pick<UploadDoc, 'file_sid' | 'partner_sid' | 'container_sid' | 'recording'> & { fields: UploadFields };
  blob_key: string;
  bytes: number;
  classification: Classification;
  /** The mime type the request and the bytes say (names the file); `mime_type` is what is stored. */
  sniffed_mime: string;
  mime_type: string;
  format: string | null;
  probed: Pick<ProbeReply, 'duration' | 'bitrate'> | null;
  /** The upload-time transcoding it gets; `transcoded` when it was done within the commit. */
  plan: TranscodingPlan | null;
  transcoded: boolean;
  encryption: FileEncryptionDoc | null;
  now: Date;
}

/** The File document of a committed upload: the upload's fields, what its content is, and the defaults. */
export function newFileDoc(c: CommittedUpload): FileDoc {
  const { upload: u, plan, now } = c;
  const f = u.fields;
  return {
    file_sid: u.file_sid,
    partner_sid: u.partner_sid,
    container_sid: u.container_sid,
    blob_key: c.blob_key,
    name: u.recording && !f.given_name ? recordingName(u.recording, u.file_sid, c.sniffed_mime) : f.name,
    mime_type: c.mime_type,
    type: f.type,
    content_classification: c.classification,
    content_format: c.format,
    content_duration: c.probed?.duration ?? null,
    content_bitrate: c.probed?.bitrate ?? null,
    content_transcoding_progress: plan ? (c.transcoded ? 100 : 0) : null,
    desired_format: f.desired_format,
    desired_bitrate: f.desired_bitrate,
    // Named after the format it will have: the publish_uri returned now stays valid after transcoding.
    file_access_name:
      f.file_access_name ??
      (plan
        ? `${u.file_sid}.${plan.target}`
        : defaultAccessName(u.file_sid, f.given_name ? f.name : undefined, c.sniffed_mime)),
    file_bytes: c.bytes,
    publish: f.publish,
    threshold_include: f.threshold_include,
    lifecycle_action: f.lifecycle_action,
    lifecycle_ttl: f.lifecycle_ttl,
    unique: f.unique,
    ...(f.unique ? { unique_key: uniqueKey(u.container_sid, f) } : {}),
    parent_file_sid: null,
    ...keyValuesOf(f),
    date_created: now,
    date_modified: now,
    date_last_accessed: now,
    date_content_modified: now,
    encryption: c.encryption,
    ...(f.lifecycle_action === 'delete' && f.lifecycle_ttl >= 0
      ? { expires_at: new Date(now.getTime() + f.lifecycle_ttl * 1000) }
      : {}),
  };
}

/** A recording's default name: `<call_sid or file_sid>.<ext>` (docs/interface-notes.md, Media plane). */
function recordingName(r: RecordingOrigin, fileSid: string, mimeType: string): string {
  const ext = extensionForMime(mimeType);
  return `${r.call_sid ?? fileSid}${ext ? `.${ext}` : ''}`;
}

/** What the stored bytes are: an encrypted file is served as the age file it is, not as its plaintext's type. */
export function storedMimeType(f: Pick<FileDoc, 'encryption' | 'mime_type'>): string {
  return f.encryption ? 'application/octet-stream' : f.mime_type;
}
