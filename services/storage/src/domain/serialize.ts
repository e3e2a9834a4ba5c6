import { keyValuesOf } from '@patchbay/contracts';
import type { Container, EncryptionKey, ExternalAttributesRead, FileEncryption, StoredFile } from '@patchbay/contracts';
import { containerStatus } from './container-rules';
import type { ContainerDoc, EncryptionKeyDoc, FileDoc, FileEncryptionDoc } from './documents';
import { locationOf } from './external-attributes';

const iso = (d: Date | string) => new Date(d).toISOString();

export function serializeContainer(c: ContainerDoc): Container {
  return {
    allow_publish: c.allow_publish,
    allowed_classifications: c.allowed_classifications,
    ...containerStatus(c),
    blocked_classifications: c.blocked_classifications,
    container_sid: c.container_sid,
    date_created: iso(c.date_created),
    date_modified: iso(c.date_modified),
    default_file_lifecycle_action: c.default_file_lifecycle_action,
    default_file_lifecycle_ttl: c.default_file_lifecycle_ttl,
    default_file_publish: c.default_file_publish,
    default_file_threshold_include: c.default_file_threshold_include,
    default_file_unique: c.default_file_unique,
    encryption_key_sids: c.encryption_key_sids ?? [],
    ...keyValuesOf(c),
    is_default: c.is_default,
    name: c.name,
    partner_sid: c.partner_sid,
    quota_bytes: c.quota_bytes,
    quota_files: c.quota_files,
    threshold_action: c.threshold_action,
    threshold_bytes: c.threshold_bytes,
    threshold_bytes_target: c.threshold_bytes_target,
    threshold_files: c.threshold_files,
    threshold_files_target: c.threshold_files_target,
    threshold_grace_period: c.threshold_grace_period,
    threshold_total_bytes: c.threshold_total_bytes,
    threshold_total_files: c.threshold_total_files,
    total_bytes: c.total_bytes,
    total_files: c.total_files,
    external_attributes: c.external_attributes ? maskCredentials(c.external_attributes) : null,
    type: c.type,
    unique: c.unique,
    ...(c.type === 'internal' ? {} : NO_LIMITS),
  };
}

/**
 * Quota and threshold do not apply to an external container (decisions §41): its limit settings and
 * the status derived from them read as null; `total_files`/`total_bytes` still count its files.
 */
const NO_LIMITS = {
  available_bytes_percent: null,
  available_files_percent: null,
  quota_bytes: null,
  quota_files: null,
  threshold_action: null,
  threshold_available_bytes_percent: null,
  threshold_available_files_percent: null,
  threshold_bytes: null,
  threshold_bytes_target: null,
  threshold_files: null,
  threshold_files_target: null,
  threshold_grace_period: null,
  threshold_total_bytes: null,
  threshold_total_files: null,
} as const;

/** Credentials of an external container are write-only; the location fields are strings as stored. */
function maskCredentials(ext: Record<string, unknown>): ExternalAttributesRead {
  const creds = ext.credentials;
  const masked =
    creds && typeof creds === 'object' ? Object.keys(creds).map((k): [string, '********'] => [k, '********']) : null;
  // The location keys were checked against the schema when they were stored (external-attributes.ts).
  return { ...locationOf(ext), credentials: masked ? Object.fromEntries(masked) : null };
}

/** `publish_uri`: by `publish`, null for `no` or when the container forbids publishing. */
export function publishUri(
  storageUrl: string,
  f: Pick<FileDoc, 'publish' | 'file_sid' | 'file_access_name'>,
  allowPublish: boolean,
): string | null {
  if (!allowPublish || f.publish === 'no') return null;
  return `${storageUrl}/f/${encodeURIComponent(f.publish === 'file_sid' ? f.file_sid : f.file_access_name)}`;
}

/**
 * When the file's bytes last changed, for Last-Modified and If-Range (decisions §19): a rename or a
 * publish change keeps it, new data moves it. Records from before the field existed: their upload
 * time, or, once transcoded, the last change recorded (the best that is known).
 */
export function contentModified(
  f: Pick<FileDoc, 'date_content_modified' | 'date_created' | 'date_modified' | 'content_transcoding_progress'>,
): Date {
  if (f.date_content_modified) return new Date(f.date_content_modified);
  return new Date(f.content_transcoding_progress === 100 ? f.date_modified : f.date_created);
}

export function serializeFile(f: FileDoc, storageUrl: string, allowPublish: boolean): StoredFile {
  return {
    container_sid: f.container_sid,
    content_classification: f.content_classification,
    content_duration: f.content_duration,
    content_format: f.content_format,
    content_transcoding_progress: f.content_transcoding_progress,
    date_created: iso(f.date_created),
    date_last_accessed: iso(f.date_last_accessed),
    date_modified: iso(f.date_modified),
    desired_bitrate: f.desired_bitrate,
    desired_format: f.desired_format,
    encryption: f.encryption ? serializeEncryption(f.encryption) : null,
    file_access_name: f.file_access_name,
    file_bytes: f.file_bytes,
    file_sid: f.file_sid,
    ...keyValuesOf(f),
    lifecycle_action: f.lifecycle_action,
    lifecycle_ttl: f.lifecycle_ttl,
    mime_type: f.mime_type,
    name: f.name,
    parent_file_sid: f.parent_file_sid,
    partner_sid: f.partner_sid,
    publish: f.publish,
    publish_uri: publishUri(storageUrl, f, allowPublish),
    threshold_include: f.threshold_include,
    type: f.type,
    unique: f.unique,
  };
}

function serializeEncryption(e: FileEncryptionDoc): FileEncryption {
  return {
    encryption_key_sids: e.encryption_key_sids,
    format: e.format,
    header_bytes: e.header_bytes,
    plaintext_bytes: e.plaintext_bytes,
  };
}

export function serializeEncryptionKey(k: EncryptionKeyDoc): EncryptionKey {
  return {
    date_created: iso(k.date_created),
    encryption_key_sid: k.encryption_key_sid,
    fingerprint: k.fingerprint,
    key_type: k.key_type,
    name: k.name,
    partner_sid: k.partner_sid,
    public_key: k.public_key,
  };
}
