export {
  ApiError,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  DuplicateKeyError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  RangeNotSatisfiableError,
  UnprocessableError,
  UnavailableError,
  TooManyRequestsError,
  TimeoutError,
  errorFromCode,
  hasErrorCode,
  errorItem,
} from './errors';
export type { ErrorOptions } from './errors';
export { ERROR_CODES, codeForStatus, isErrorCode, statusOf } from './error-codes';
export type { CodeWithStatus, ErrorCode } from './error-codes';
export type { BusReply } from './reply';
export { ok, replyForError, unwrapReply, isBusReply } from './reply';
export { Subjects, Queues, Streams } from './subjects';
export { compileValidator } from './validate';
export type { Validator } from './validate';
export { ErrorBodySchema, ErrorItemSchema } from './schemas/error';
export type { ErrorBody, ErrorItem } from './schemas/error';
export { ListEnvelopeSchema, AnyListEnvelopeSchema, PaginationSchema } from './schemas/envelope';
export type { ListEnvelope } from './schemas/envelope';
export { ALL_SCOPES, OPERATOR_ONLY_SCOPES, ScopeSchema } from './schemas/scopes';
export type { Scope } from './schemas/scopes';
export { PartnerSchema, PartnerCreateSchema, PartnerUpdateSchema } from './schemas/partner';
export type { Partner, PartnerCreate, PartnerUpdate } from './schemas/partner';
export { TokenSchema, TokenRequestSchema, TokenRevokeSchema, TokenUpdateSchema } from './schemas/token';
export type { Token, TokenRequest, TokenUpdate } from './schemas/token';
export { CountrySchema } from './schemas/country';
export type { Country } from './schemas/country';
export { BusReplySchema } from './schemas/bus-reply';
export { PrincipalSchema, GatewayRequestSchema, KeyedWriteSchema } from './gateway-request';
export type { Principal, GatewayRequest, KeyedWrite } from './gateway-request';
export { parseFlag, parseWithRelated } from './flags';
export {
  CONTAINER_TYPES,
  ExternalAttributesSchema,
  CLASSIFICATIONS,
  ClassificationSchema,
  THRESHOLD_ACTIONS,
  PUBLISH_VALUES,
  LIFECYCLE_ACTIONS,
  ContainerPatchSchema,
  ContainerPutSchema,
  BlobStoreOpenRequestSchema,
  BlobStoreOpenReplySchema,
} from './schemas/container';
export type {
  Classification,
  Container,
  ContainerPatch,
  ContainerSettingsFields,
  ContainerType,
  BlobStoreOpenReply,
  ExternalStoreType,
  ExternalAttributes,
} from './schemas/container';
export {
  AUDIO_FORMATS,
  TARGET_FORMATS,
  BITRATES,
  FileUploadSchema,
  FilePatchSchema,
  FilePutSchema,
  FILE_READ_ONLY,
} from './schemas/file';
export type { FileUpload, FilePatch, StoredFile } from './schemas/file';
export {
  ENDPOINT_TYPES,
  HOSTED_ENDPOINT_TYPES,
  ADDRESS_DIRECTIONS,
  ADDRESS_TRANSPORTS,
  CALLBACK_METHODS,
  EndpointTypeSchema,
  EndpointSchema,
  EndpointAddressSchema,
  EndpointAddressInputSchema,
  EndpointAttributesSchema,
  EndpointPropertiesSchema,
  EndpointPropertiesInputSchema,
  EndpointTransformationSchema,
  EndpointCreateSchema,
  EndpointUpdateSchema,
  EndpointReplaceSchema,
} from './schemas/endpoint';
export type {
  Endpoint,
  EndpointType,
  HostedEndpointType,
  EndpointAddress,
  EndpointAddressInput,
  EndpointAttributes,
  EndpointProperties,
  EndpointPropertiesInput,
  EndpointCreate,
  EndpointUpdate,
  EndpointReplace,
} from './schemas/endpoint';
export { ALL_WRITABLE_PROPERTIES, WRITABLE_PROPERTIES, type WritableProperty } from './endpoint-properties';
export { PushApplicationSchema, PushApplicationWriteSchema, CREDENTIAL_MASK } from './schemas/push-application';
export type { PushApplication, PushApplicationWrite } from './schemas/push-application';
export {
  PushDeviceSchema,
  PushDeviceCreateSchema,
  PushDevicePatchSchema,
  DEVICE_TYPES,
  DEVICE_ENVIRONMENTS,
} from './schemas/push-device';
export type {
  PushDevice,
  PushDeviceCreate,
  PushDevicePatch,
  DeviceType,
  DeviceEnvironment,
} from './schemas/push-device';
export {
  PushNotificationSchema,
  PushSendResultSchema,
  MAX_PUSH_RECIPIENTS,
  PUSH_PRIORITIES,
  PUSH_FAILURE_REASONS,
} from './schemas/push-notification';
export type { PushNotification, PushSendResult, PushResult, PushFailureReason } from './schemas/push-notification';
export {
  SecureIdSchema,
  TimestampSchema,
  DecimalStringSchema,
  SecondsStringSchema,
  RecordNumberSchema,
  RecordText,
  RecordCountSchema,
  RECORD_DIRECTIONS,
  RecordDirectionSchema,
  recordInputSchema,
} from './schemas/detail-record';
export type { RecordInput } from './schemas/detail-record';
export {
  INGEST_BATCH_RECORDS,
  INGEST_BATCH_BYTES,
  INGEST_RECORD_MAX_BYTES,
  INGEST_MAX_ERRORS,
  INGEST_MAX_IGNORED_FIELDS,
  INGEST_IGNORED_NAME_MAX,
  RecordIngestErrorSchema,
  IgnoredFieldsSchema,
  RecordIngestReportSchema,
  tallyIgnoredFields,
  ignoredFieldsObject,
} from './schemas/record-ingest';
export type { IgnoredFields, RecordIngestError, RecordIngestReport } from './schemas/record-ingest';
export { CallRecordSchema, CallRecordInputSchema, CALL_RECORD_REQUIRED } from './schemas/call-record';
export type { CallRecord, CallRecordInput, CallCompletedEvent } from './schemas/call-record';
export {
  MessageRecordSchema,
  MessageRecordInputSchema,
  MESSAGE_RECORD_REQUIRED,
  MESSAGE_TYPES,
} from './schemas/message-record';
export type { MessageRecord, MessageRecordInput, MessageRecordedEvent } from './schemas/message-record';
export {
  SWEEP_REASONS,
  SweepContainersRequestSchema,
  SweepCandidatesRequestSchema,
  SweepDeleteRequestSchema,
  SweepReleaseRequestSchema,
  SweepExpiredRequestSchema,
  UsageSnapshotRequestSchema,
} from './messages/sweep';
export type {
  SweepReason,
  SweepContainersRequest,
  SweepContainersReply,
  SweepCandidatesRequest,
  SweepCandidatesReply,
  SweepContainerState,
  SweepCandidate,
  SweepDeleteRequest,
  SweepDeleteReply,
  SweepReleaseRequest,
  SweepExpiredRequest,
  SweepExpiredReply,
  UsageSnapshotRequest,
  UsageSnapshotReply,
} from './messages/sweep';
export { ContainerUsageSchema, ContainerUsageItemSchema, ContainerUsageQuerySchema } from './schemas/container-usage';
export type { ContainerUsage, ContainerUsageItem } from './schemas/container-usage';
export { MAX_JSON_DEPTH, jsonDepth, assertJsonDepth } from './json-depth';
export { MIME_TYPE_PATTERN, safeContentType } from './mime-type';
export {
  RECORDING_ENDPOINT_TYPES,
  RecordingQuerySchema,
  PlaybackQuerySchema,
  RecordingPrepareRequestSchema,
  PlaybackOpenRequestSchema,
  PlaybackOpenReplySchema,
  EndpointLookupRequestSchema,
  EndpointLookupReplySchema,
  PublishedCheckRequestSchema,
  VoicemailCallbackScheduleSchema,
} from './schemas/media';
export type {
  RecordingQuery,
  PlaybackQuery,
  RecordingPrepareRequest,
  PlaybackOpenRequest,
  PlaybackOpenReply,
  EndpointLookupReply,
  PublishedCheckRequest,
  VoicemailCallbackSchedule,
  VoicemailCallbackDelivery,
} from './schemas/media';
export { BITRATE_FORMATS } from './schemas/file';
export {
  MEDIA_FORMATS,
  streamsWhileEncoded,
  mediaFormat,
  isTargetFormat,
  mimeOfFormat,
  ffmpegInputArgs,
  formatOfMime,
  describeMediaMimes,
} from './media-formats';
export type { MediaFormat, TargetFormat, AudioFormat } from './media-formats';
export {
  OWN_BLOB_PREFIXES,
  fileBlobKey,
  transcodedBlobKey,
  isTranscodingOf,
  cacheBlobKey,
  cachePrefixOf,
  externalBlobKey,
  parseExternalBlobKey,
  isExternalBlobKey,
  fileSidOfBlobKey,
} from './blob-keys';
export { ContainerSchema } from './schemas/container';
export { FileSchema } from './schemas/file';
export {
  EncryptionKeyCreateSchema,
  EncryptionKeyPatchSchema,
  EncryptionKeySchema,
  FileEncryptionSchema,
  KEY_TYPES,
  MAX_CONTAINER_KEYS,
} from './schemas/encryption-key';
export type { EncryptionKey, EncryptionKeyCreate, EncryptionKeyPatch, FileEncryption } from './schemas/encryption-key';
export { VoicemailCallbackDeliverySchema } from './schemas/media';
export { PublicFileQuerySchema, CACHE_CONTROL_PATTERN, CACHE_HEADERS_PATTERN } from './schemas/public-file';
export type { PublicFileQuery } from './schemas/public-file';
export type { RequestSpec, PayloadSpec, RequestTable, PayloadTable } from './messages/message-spec';
export {
  IdentityRequests,
  IdentityEvents,
  AuthenticateTokenRequestSchema,
  AuthenticateBasicRequestSchema,
  TokenIssueRequestSchema,
  AuthenticatedSchema,
  PartnerLookupRequestSchema,
  PartnerSidsRequestSchema,
  PartnerSidsReplySchema,
  BootstrapRequestSchema,
  BootstrapReplySchema,
  PartnerEventSchema,
  TokenRevokedEventSchema,
} from './messages/identity';
export type {
  Authenticated,
  PartnerSidsRequest,
  PartnerSidsReply,
  BootstrapRequest,
  BootstrapReply,
  PartnerEvent,
  TokenRevokedEvent,
} from './messages/identity';
export {
  RecordsRequests,
  RecordsEvents,
  RecordIngestBatchSchema,
  RecordIngestBatchResultSchema,
  RecordEventSchema,
} from './messages/records';
export type { RecordIngestBatch, RecordIngestBatchResult, RecordEvent } from './messages/records';
export {
  EndpointRequests,
  CallbackScheduledSchema,
  ContainerUsersRequestSchema,
  ContainerUsersReplySchema,
} from './messages/endpoint';
export { PushRequests } from './messages/push';
export { ThresholdWorkerJobs, SweepJobSchema, ExpireJobSchema, UsageJobSchema } from './messages/threshold-worker';
export type { SweepJob, ExpireJob, UsageJob } from './messages/threshold-worker';
export type { BusRequester, CallOptions } from './clients/bus-requester';
export { TableCaller, type ReplyOf, type RequestOf } from './clients/table-caller';
export { IdentityClient } from './clients/identity-client';
export { EndpointClient } from './clients/endpoint-client';
export { RecordsClient, isRecordIngestSubject } from './clients/records-client';
export {
  TranscoderRequests,
  TranscoderJobs,
  TranscoderEvents,
  ProbeRequestSchema,
  ProbeReplySchema,
  TranscodeRequestSchema,
  TranscodeReplySchema,
  SealedTranscodeRequestSchema,
  SealedTranscodeReplySchema,
  UploadJobSchema,
  TranscodingProgressEventSchema,
  TranscodingDoneEventSchema,
  TranscodingFailedEventSchema,
  LiveStartRequestSchema,
  LiveStartReplySchema,
  LivePullRequestSchema,
  LivePullReplySchema,
  LIVE_PULL_BYTES,
  LIVE_SUBJECT_PREFIX,
  PROBE_RUN_MS,
  PROBE_WAIT_MS,
} from './messages/transcoder';
export type {
  ProbeRequest,
  ProbeReply,
  TranscodeRequest,
  TranscodeReply,
  SealedTranscodeRequest,
  SealedTranscodeReply,
  UploadJob,
  TranscodingProgressEvent,
  TranscodingDoneEvent,
  TranscodingFailedEvent,
  LiveStartRequest,
  LiveStartReply,
  LivePullRequest,
  LivePullReply,
} from './messages/transcoder';
export { TranscoderClient } from './clients/transcoder-client';
export { StorageClient } from './clients/storage-client';
export {
  StorageRequests,
  StorageEvents,
  StorageJobs,
  MediaProbeJobSchema,
  FileEventSchema,
  UploadPrepareRequestSchema,
  ExportPrepareRequestSchema,
  UploadReserveRequestSchema,
  UploadCommitRequestSchema,
  UploadAbortRequestSchema,
  PreparedSchema,
  OpenedSchema,
  PublicFileSchema,
  ResolvePublicRequestSchema,
  ContainerCheckRequestSchema,
  ContainerDefaultRequestSchema,
} from './messages/storage';
export type {
  UploadPrepareRequest,
  ExportPrepareRequest,
  UploadReserveRequest,
  UploadCommitRequest,
  UploadAbortRequest,
  Prepared,
  Opened,
  PublicFile,
  FileEvent,
  MediaProbeJob,
} from './messages/storage';
export type { RecordIngestSubject } from './clients/records-client';
export {
  CopyCacheRequests,
  CopyClaimRequestSchema,
  CopyClaimReplySchema,
  CopyLeaseRequestSchema,
  CopyRenewRequestSchema,
  CopyStoredRequestSchema,
  CopyUsedRequestSchema,
  COPY_LEASE_MS,
  COPY_RENEW_MS,
  COPY_USE_MS,
} from './messages/copies';
export type {
  CopyClaimRequest,
  CopyClaimReply,
  CopyLeaseRequest,
  CopyRenewReply,
  CopyRenewRequest,
  CopyStoredRequest,
  CopyUsedRequest,
} from './messages/copies';
export { CopyCacheClient } from './clients/copy-cache-client';
export { ExternalAttributesReadSchema } from './schemas/container';
export type { ExternalAttributesRead } from './schemas/container';
export {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_KEY_MIN_HOURS,
  isIdempotencyKey,
  idempotencyKeyMismatch,
  idempotencyKeyInProgress,
  IN_PROGRESS_RETRY_SECONDS,
  decideBegin,
} from './idempotency';
export type { BeginDecision, KeyClaim, KeyedRequest } from './idempotency';
export {
  IdempotentAnswerSchema,
  IdempotencyBeginRequestSchema,
  IdempotencyBeginReplySchema,
  IdempotencyFinishRequestSchema,
  IdempotencyReleaseRequestSchema,
  IdempotencyRenewRequestSchema,
  IdempotencyHeldReplySchema,
  UploadIdempotencySchema,
} from './messages/idempotency';
export type {
  IdempotentAnswer,
  IdempotencyBeginRequest,
  IdempotencyBeginReply,
  IdempotencyFinishRequest,
  IdempotencyReleaseRequest,
  IdempotencyRenewRequest,
  IdempotencyHeldReply,
  UploadIdempotency,
} from './messages/idempotency';
export {
  EXPORT_KINDS,
  EXPORT_FORMATS,
  EXPORT_COMPRESSIONS,
  EXPORT_STATUSES,
  EXPORT_FINAL_STATUSES,
  RecordExportCreateSchema,
  RecordExportSchema,
  RecordExportCreatedSchema,
  ExportCallbackSchema,
  ExportCallbackAttemptSchema,
} from './schemas/record-export';
export type {
  ExportKind,
  ExportFormat,
  ExportCompression,
  ExportStatus,
  RecordExportCreate,
  RecordExport,
  RecordExportCreated,
  ExportCallback,
  ExportCallbackAttempt,
} from './schemas/record-export';
export {
  USAGE_UNITS,
  CALL_USAGE_KEYS,
  MESSAGE_USAGE_KEYS,
  CallUsageSchema,
  CallUsageItemSchema,
  MessageUsageSchema,
  MessageUsageItemSchema,
  UsageQuerySchema,
} from './schemas/record-usage';
export type { UsageUnit, CallUsage, CallUsageItem, MessageUsage, MessageUsageItem } from './schemas/record-usage';
export { csvField, csvRow, toCsv } from './csv';
export {
  INTEGER_KEY_FIELDS,
  STRING_KEY_FIELDS,
  KEY_FIELDS,
  KEY_FIELD_KINDS,
  IntegerKeySchemas,
  StringKeySchemas,
  KeySchemas,
  NO_KEYS,
  keyValuesOf,
} from './schemas/key-fields';
export type { KeyValues } from './schemas/key-fields';
