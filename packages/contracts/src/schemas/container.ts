import { Type, type Static, type TObject } from '@sinclair/typebox';
import { MAX_CONTAINER_KEYS } from './encryption-key';
import { IntegerKeySchemas, StringKeySchemas } from './key-fields';
import { Literals, optionalAll } from './schema-helpers';

export const CLASSIFICATIONS = ['archive', 'document', 'executable', 'media', 'unknown'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];
export const ClassificationSchema = Type.Union(CLASSIFICATIONS.map((c) => Type.Literal(c)));

/**
 * `internal` is Patchbay's own blob store; the others name an external object storage
 * (docs/interface-notes.md, External containers).
 */
export const CONTAINER_TYPES = ['internal', 'aws_s3', 'gcp_storage', 'azure_blob'] as const;
export type ContainerType = (typeof CONTAINER_TYPES)[number];

/** Where an external container lives. `credentials` are write-only: returned as "********". */
export const ExternalAttributesSchema = Type.Object(
  {
    bucket: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    container: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    region: Type.Optional(Type.String({ maxLength: 64 })),
    endpoint: Type.Optional(Type.String({ maxLength: 512 })),
    prefix: Type.Optional(Type.String({ maxLength: 512 })),
    credentials: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

/**
 * Internal (storage → blob routing): an external store as blobs are read and written in it. The
 * store id names one place (container and location); credentials are opened (plaintext): this goes
 * only over the internal bus, never into a response or a log.
 */
export const BlobStoreOpenRequestSchema = Type.Object({ store_id: Type.String({ minLength: 1, maxLength: 200 }) });
export const BlobStoreOpenReplySchema = Type.Object({
  store_id: Type.String(),
  type: Type.Union([Type.Literal('aws_s3'), Type.Literal('gcp_storage'), Type.Literal('azure_blob')]),
  attributes: ExternalAttributesSchema,
});
export type BlobStoreOpenReply = Static<typeof BlobStoreOpenReplySchema>;
export type ExternalStoreType = BlobStoreOpenReply['type'];
export type ExternalAttributes = Static<typeof ExternalAttributesSchema>;

export const THRESHOLD_ACTIONS = ['no_action', 'reject', 'delete_lru'] as const;
export const PUBLISH_VALUES = ['no', 'file_access_name', 'file_sid'] as const;
export const LIFECYCLE_ACTIONS = ['no_action', 'delete'] as const;

const Nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(t: T) =>
  Type.Union([t, Type.Null()]);
const NonNegInt = Type.Integer({ minimum: 0 });

/** Writable container fields (create and update; `unique` and `type` only at creation). */
const containerWritable = {
  allow_publish: Type.Boolean(),
  allowed_classifications: Type.Array(ClassificationSchema, { uniqueItems: true }),
  blocked_classifications: Type.Array(ClassificationSchema, { uniqueItems: true }),
  default_file_lifecycle_action: Literals(LIFECYCLE_ACTIONS),
  default_file_lifecycle_ttl: Type.Integer({ minimum: -1 }),
  default_file_publish: Literals(PUBLISH_VALUES),
  default_file_threshold_include: Type.Boolean(),
  default_file_unique: Type.Boolean(),
  /** Keys of the same partner every file stored from now on is encrypted to (docs/interface-notes.md §20). */
  encryption_key_sids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: MAX_CONTAINER_KEYS,
    uniqueItems: true,
  }),
  ...IntegerKeySchemas,
  name: Type.String({ maxLength: 256 }),
  // Null only on an external container, where quota and threshold do not apply (decisions §41).
  quota_bytes: Nullable(NonNegInt),
  quota_files: Nullable(NonNegInt),
  ...StringKeySchemas,
  threshold_action: Type.Union([Literals(THRESHOLD_ACTIONS), Type.Null()]),
  threshold_bytes: Nullable(NonNegInt),
  threshold_bytes_target: Nullable(NonNegInt),
  threshold_files: Nullable(NonNegInt),
  threshold_files_target: Nullable(NonNegInt),
  threshold_grace_period: Nullable(NonNegInt),
  type: Literals(CONTAINER_TYPES),
  external_attributes: Type.Union([ExternalAttributesSchema, Type.Null()]),
  unique: Type.Boolean(),
};

/** A container's writable settings as the schema types them (the defaults and a stored container hold them). */
export type ContainerSettingsFields = Static<TObject<typeof containerWritable>>;

/** Read-only fields a client may send back (ignored, not errors). */
const containerReadOnly = {
  available_bytes_percent: Type.Unknown(),
  available_files_percent: Type.Unknown(),
  container_sid: Type.Unknown(),
  date_created: Type.Unknown(),
  date_modified: Type.Unknown(),
  is_default: Type.Unknown(),
  partner_sid: Type.Unknown(),
  threshold_available_bytes_percent: Type.Unknown(),
  threshold_available_files_percent: Type.Unknown(),
  threshold_total_bytes: Type.Unknown(),
  threshold_total_files: Type.Unknown(),
  total_bytes: Type.Unknown(),
  total_files: Type.Unknown(),
};

/** POST /storage/containers and PATCH: every field optional. */
export const ContainerPatchSchema = Type.Partial(
  Type.Object({ ...containerWritable, ...containerReadOnly }, { additionalProperties: false }),
  { additionalProperties: false, $id: 'ContainerPatch' },
);
export type ContainerPatch = Static<typeof ContainerPatchSchema>;

/** PUT /storage/containers/{sid}: the whole writable object. */
export const ContainerPutSchema = Type.Object(
  {
    ...containerWritable,
    // Optional, and kept when left out: a PUT written before encryption existed must not turn it off unnoticed.
    encryption_key_sids: Type.Optional(containerWritable.encryption_key_sids),
    ...optionalAll(containerReadOnly),
  },
  { additionalProperties: false, $id: 'ContainerPut' },
);

const Percent = Type.Number({ minimum: 0, maximum: 100 });
const NullablePercent = Type.Union([Percent, Type.Null()]);

/** `external_attributes` as returned: the location as stored, each credential "********". */
export const ExternalAttributesReadSchema = Type.Object(
  {
    bucket: Type.Optional(Type.String({ description: 'aws_s3 and gcp_storage' })),
    container: Type.Optional(Type.String({ description: 'azure_blob' })),
    region: Type.Optional(Type.String({ description: 'aws_s3' })),
    endpoint: Type.Optional(Type.String()),
    prefix: Type.Optional(Type.String()),
    credentials: Type.Union([Type.Record(Type.String(), Type.Literal('********')), Type.Null()], {
      description: 'Write-only: the names of the credentials given, each "********"; null when none were given.',
    }),
  },
  { additionalProperties: false },
);

export type ExternalAttributesRead = Static<typeof ExternalAttributesReadSchema>;

/**
 * A container as the API returns it: every field present (null when unset). The `*_percent` and
 * `threshold_total_*` fields are status, derived from the counters; credentials in
 * `external_attributes` are returned as "********". On an external container (`type` other than
 * `internal`) quota and threshold do not apply: those settings and the status derived from them are
 * null, and `total_files`/`total_bytes` count its files.
 */
export const ContainerSchema = Type.Object(
  {
    ...containerWritable,
    allowed_classifications: Type.Array(ClassificationSchema),
    blocked_classifications: Type.Array(ClassificationSchema),
    available_bytes_percent: NullablePercent,
    available_files_percent: NullablePercent,
    container_sid: Type.String({ format: 'uuid' }),
    date_created: Type.String({ format: 'date-time' }),
    date_modified: Type.String({ format: 'date-time' }),
    external_attributes: Type.Union([ExternalAttributesReadSchema, Type.Null()]),
    is_default: Type.Boolean(),
    name: Type.String(),
    partner_sid: Type.String({ format: 'uuid' }),
    threshold_available_bytes_percent: NullablePercent,
    threshold_available_files_percent: NullablePercent,
    threshold_total_bytes: Nullable(NonNegInt),
    threshold_total_files: Nullable(NonNegInt),
    total_bytes: NonNegInt,
    total_files: NonNegInt,
  },
  {
    additionalProperties: false,
    $id: 'Container',
    description:
      'On an external container (type aws_s3, gcp_storage or azure_blob) quota and threshold do not apply: ' +
      'quota_*, threshold_* and the *_percent fields are null; total_files and total_bytes count its files.',
  },
);
export type Container = Static<typeof ContainerSchema>;
