import { Type, type Static } from '@sinclair/typebox';
import { ClassificationSchema, LIFECYCLE_ACTIONS, PUBLISH_VALUES } from './container';
import { MIME_TYPE_PATTERN } from '../mime-type';
import { FileEncryptionSchema } from './encryption-key';
import { KeySchemas } from './key-fields';
import { Literals, optionalAll, sameForEach } from './schema-helpers';

import { AUDIO_FORMATS, BITRATE_FORMATS, TARGET_FORMATS } from '../media-formats';

export { AUDIO_FORMATS, BITRATE_FORMATS, TARGET_FORMATS };
export const BITRATES = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;

/** An access name is a path segment of the public URL. */
const AccessName = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9][A-Za-z0-9._~-]*$' });
/** Becomes the Content-Type of every download: printable ASCII, anchored (mime-type.ts). */
const MimeType = Type.String({
  minLength: 3,
  maxLength: 255,
  pattern: MIME_TYPE_PATTERN,
  patternMessage:
    'must be a media type such as audio/mpeg or text/plain; charset=utf-8 (printable ASCII, no line breaks)',
});

/** Fields a client may change after upload. */
const fileMutable = {
  ...KeySchemas,
  file_access_name: AccessName,
  lifecycle_action: Literals(LIFECYCLE_ACTIONS),
  lifecycle_ttl: Type.Integer({ minimum: -1 }),
  name: Type.String({ minLength: 1, maxLength: 512 }),
  publish: Literals(PUBLISH_VALUES),
  threshold_include: Type.Boolean(),
};

/** The File fields of an upload (`file_object` JSON or query parameters). Only `container_sid` is required. */
export const FileUploadSchema = Type.Object(
  {
    ...optionalAll(fileMutable),
    container_sid: Type.String({ minLength: 1, maxLength: 64 }),
    content_classification: Type.Optional(ClassificationSchema),
    desired_bitrate: Type.Optional(Type.Union([Literals(BITRATES), Literals(BITRATES.map(String))])),
    desired_format: Type.Optional(Literals(TARGET_FORMATS)),
    mime_type: Type.Optional(MimeType),
    type: Type.Optional(Literals(['file', 'audio'])),
    unique: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, $id: 'FileUpload' },
);
export type FileUpload = Static<typeof FileUploadSchema> & { [k: string]: unknown };

/**
 * Read-only file fields a client may send back on update: ignored when they hold the stored value;
 * a changed one that was set at creation (`unique`, `container_sid`…) is a 422 naming it (storage's
 * domain/file-update-rules.ts).
 */
export const FILE_READ_ONLY = [
  'container_sid',
  'content_classification',
  'content_duration',
  'content_format',
  'content_transcoding_progress',
  'date_created',
  'date_last_accessed',
  'date_modified',
  'desired_bitrate',
  'desired_format',
  'encryption',
  'file_bytes',
  'file_sid',
  'parent_file_sid',
  'partner_sid',
  'publish_uri',
  'type',
  'unique',
] as const;
/** The read-only fields, each accepted on update (see FILE_READ_ONLY). */
const fileReadOnly = optionalAll(sameForEach(FILE_READ_ONLY, Type.Unknown()));

export const FilePatchSchema = Type.Object(
  {
    ...optionalAll(fileMutable),
    mime_type: Type.Optional(MimeType),
    ...fileReadOnly,
  },
  { additionalProperties: false, $id: 'FilePatch' },
);
export type FilePatch = Static<typeof FilePatchSchema> & { [k: string]: unknown };

export const FilePutSchema = Type.Object(
  {
    ...fileMutable,
    mime_type: Type.Optional(MimeType),
    ...fileReadOnly,
  },
  { additionalProperties: false, $id: 'FilePut' },
);

const Timestamp = Type.String({ format: 'date-time' });

/**
 * A file as the API returns it: every field present (null when unset). `content_*` describe the
 * stored data (after an upload-time transcoding, the new data; `content_transcoding_progress` 0..100
 * while it runs, null when none was asked); `publish_uri` is null when `publish` is `no` or the
 * container does not allow publishing.
 */
export const FileSchema = Type.Object(
  {
    ...KeySchemas,
    container_sid: Type.String({ format: 'uuid' }),
    content_classification: ClassificationSchema,
    content_duration: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    content_format: Type.Union([Type.String(), Type.Null()]),
    content_transcoding_progress: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
    date_created: Timestamp,
    date_last_accessed: Timestamp,
    date_modified: Timestamp,
    desired_bitrate: Type.Union([Type.Integer(), Type.Null()]),
    desired_format: Type.Union([Type.String(), Type.Null()]),
    /** How the stored bytes are encrypted (age v1 to the container's keys), null for a plain file. */
    encryption: Type.Union([FileEncryptionSchema, Type.Null()]),
    file_access_name: Type.String(),
    file_bytes: Type.Integer({ minimum: 0 }),
    file_sid: Type.String({ format: 'uuid' }),
    lifecycle_action: Literals(LIFECYCLE_ACTIONS),
    lifecycle_ttl: Type.Integer({ minimum: -1 }),
    mime_type: Type.String(),
    name: Type.String(),
    parent_file_sid: Type.Union([Type.String(), Type.Null()]),
    partner_sid: Type.String({ format: 'uuid' }),
    publish: Literals(PUBLISH_VALUES),
    publish_uri: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
    threshold_include: Type.Boolean(),
    type: Literals(['file', 'audio']),
    unique: Type.Boolean(),
  },
  { additionalProperties: false, $id: 'File' },
);
export type StoredFile = Static<typeof FileSchema>;
