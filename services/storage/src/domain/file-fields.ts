import type { Classification, FileUpload } from '@patchbay/contracts';
import { UnprocessableError, keyValuesOf } from '@patchbay/contracts';
import { classify, contentFormat, extensionForMime, extensionOf, mimeFromName, sniff } from './classify';
import type { ContainerSettings, UploadFields } from './documents';

/** The container settings an upload's defaults come from. */
export type FileDefaults = Pick<
  ContainerSettings,
  | 'default_file_publish'
  | 'default_file_threshold_include'
  | 'default_file_lifecycle_action'
  | 'default_file_lifecycle_ttl'
  | 'default_file_unique'
>;

/** Applies the container's `default_file_*` values and the File defaults to what the upload said. */
export function uploadFields(given: FileUpload, c: FileDefaults): UploadFields {
  return {
    name: given.name ?? 'N/A',
    given_name: given.name !== undefined,
    mime_type: given.mime_type ?? null,
    type: given.type ?? 'file',
    content_classification: given.content_classification ?? null,
    desired_format: given.desired_format ?? null,
    desired_bitrate: given.desired_bitrate !== undefined ? Number(given.desired_bitrate) : null,
    publish: given.publish ?? c.default_file_publish,
    threshold_include: given.threshold_include ?? c.default_file_threshold_include,
    lifecycle_action: given.lifecycle_action ?? c.default_file_lifecycle_action,
    lifecycle_ttl: given.lifecycle_ttl ?? c.default_file_lifecycle_ttl,
    unique: given.unique ?? c.default_file_unique,
    file_access_name: given.file_access_name ?? null,
    ...keyValuesOf(given),
  };
}

/** The classification when the request alone says enough (given, or from the name / mime type). */
export function declaredClassification(f: UploadFields): Classification | null {
  if (f.content_classification) return f.content_classification;
  if (!f.given_name && !f.mime_type) return null;
  const guess = classify({ name: f.given_name ? f.name : undefined, mimeType: f.mime_type ?? undefined });
  return guess === 'unknown' ? null : guess;
}

/** Refuses a classification the container blocks or does not allow (422). */
export function checkClassification(
  c: Pick<ContainerSettings, 'allowed_classifications' | 'blocked_classifications'>,
  classification: Classification,
): void {
  if (c.blocked_classifications.includes(classification))
    throw UnprocessableError.field(
      'content_classification',
      `classification ${classification} is blocked by the container`,
    );
  if (c.allowed_classifications.length > 0 && !c.allowed_classifications.includes(classification))
    throw UnprocessableError.field(
      'content_classification',
      `classification ${classification} is not allowed by the container`,
    );
}

/** What the content itself tells, combined with the request: mime type, classification, format. */
export function describeContent(f: UploadFields, head: Buffer) {
  const sniffed = sniff(head);
  const name = f.given_name ? f.name : undefined;
  // Audio and video are typed by their bytes, the name only when the bytes say nothing (WAV bytes
  // named x.mp3 are audio/x-wav: decisions §41); other sniffed types do not override the name, so
  // a text upload is never promoted to an active type by its content.
  const media = sniffed && /^(audio|video)\//.test(sniffed.mime) ? sniffed.mime : undefined;
  const mimeType = f.mime_type ?? media ?? mimeFromName(name) ?? sniffed?.mime ?? 'application/octet-stream';
  const classification = f.content_classification ?? classify({ sniffedMime: sniffed?.mime, name, mimeType });
  const format = contentFormat({
    sniffedFormat: sniffed?.format,
    name,
    mimeType: mimeType === 'application/octet-stream' ? undefined : mimeType,
  });
  return { mimeType, classification, format };
}

/** `<file_sid>.<ext>` from the name's extension, else the mime type's; `<file_sid>` without one. */
export function defaultAccessName(fileSid: string, name: string | undefined, mimeType: string): string {
  const ext = extensionOf(name) ?? (mimeType !== 'application/octet-stream' ? extensionForMime(mimeType) : undefined);
  return ext ? `${fileSid}.${ext}` : fileSid;
}
