import type { Classification, FileUpload } from '@patchbay/contracts';
import { UnprocessableError } from '@patchbay/contracts';
import { classify, contentFormat, extensionForMime, extensionOf, mimeFromName, sniff } from './classify';
import type { ContainerDoc } from '../repo';

/** An upload's fields after defaults, as kept between prepare and commit. */
export interface UploadFields {
  name: string;
  given_name: boolean;
  mime_type: string | null;
  type: 'file' | 'audio';
  content_classification: Classification | null;
  desired_format: string | null;
  desired_bitrate: number | null;
  publish: 'no' | 'file_access_name' | 'file_sid';
  threshold_include: boolean;
  lifecycle_action: 'no_action' | 'delete';
  lifecycle_ttl: number;
  unique: boolean;
  file_access_name: string | null;
  integer_key_1: number | null;
  integer_key_2: number | null;
  string_key_1: string | null;
  string_key_2: string | null;
  string_key_3: string | null;
  string_key_4: string | null;
}

/** Applies the container's `default_file_*` values and the File defaults to what the upload said. */
export function uploadFields(input: FileUpload, c: ContainerDoc): UploadFields {
  return {
    name: (input.name as string | undefined) ?? 'N/A',
    given_name: input.name !== undefined,
    mime_type: input.mime_type ?? null,
    type: (input.type as 'file' | 'audio' | undefined) ?? 'file',
    content_classification: (input.content_classification as Classification | undefined) ?? null,
    desired_format: (input.desired_format as string | undefined) ?? null,
    desired_bitrate: input.desired_bitrate !== undefined ? Number(input.desired_bitrate) : null,
    publish:
      (input.publish as UploadFields['publish'] | undefined) ?? (c.default_file_publish as UploadFields['publish']),
    threshold_include: (input.threshold_include as boolean | undefined) ?? c.default_file_threshold_include,
    lifecycle_action:
      (input.lifecycle_action as UploadFields['lifecycle_action'] | undefined) ??
      (c.default_file_lifecycle_action as UploadFields['lifecycle_action']),
    lifecycle_ttl: (input.lifecycle_ttl as number | undefined) ?? c.default_file_lifecycle_ttl,
    unique: input.unique ?? c.default_file_unique,
    file_access_name: (input.file_access_name as string | undefined) ?? null,
    integer_key_1: (input.integer_key_1 as number | null | undefined) ?? null,
    integer_key_2: (input.integer_key_2 as number | null | undefined) ?? null,
    string_key_1: (input.string_key_1 as string | null | undefined) ?? null,
    string_key_2: (input.string_key_2 as string | null | undefined) ?? null,
    string_key_3: (input.string_key_3 as string | null | undefined) ?? null,
    string_key_4: (input.string_key_4 as string | null | undefined) ?? null,
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
export function checkClassification(c: ContainerDoc, classification: Classification): void {
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
