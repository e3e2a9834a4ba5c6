export type {
  Bus,
  MessageContext,
  JobContext,
  RequestOptions,
  PublishOptions,
  WorkOptions,
  RequestHandler,
  EventHandler,
  JobHandler,
  Subscription,
} from './bus/port';
export { MemoryBus } from './bus/memory-bus';
export { NatsBus } from './bus/nats-bus';
export type {
  DocStore,
  Collection,
  Doc,
  Filter,
  Update,
  Sort,
  Projection,
  FindOptions,
  IndexOptions,
  FindOneAndUpdateOptions,
  UpdateResult,
  Condition,
  DocPath,
  Operators,
  PathValue,
  BucketMeasure,
  BucketQuery,
  BucketRow,
} from './doc-store/port';
export {
  bucketDate,
  calendarBuckets,
  calendarEnd,
  canonicalTimeZone,
  zonedDate,
  type CalendarBucket,
  type CalendarUnit,
} from './doc-store/calendar-buckets';
export { SqliteDocStore, type SqliteDocStoreOptions } from './doc-store/sqlite-doc-store';
export { migrateDataDir, sqliteFile } from './doc-store/nedb-migration-plan';
export type { NedbMigrationReport, MigratedCollection } from './doc-store/nedb-migration';
// MongoDocStore and GridfsBlobStore are not re-exported here, so importing the platform does not
// load the MongoDB driver; openDocStore/openBlobStore load them when MONGODB_URL is set. Import
// them from their files ('@patchbay/platform/src/doc-store/mongo-doc-store', …) where needed.
export type { BlobReader, BlobStore, BlobStat, ByteRange, PutOptions, ReadOptions } from './blob-store/port';
export { DirBlobStore } from './blob-store/dir-blob-store';
export type { MemoryHub } from './bus/memory-bus';
export { loadConfig, ConfigError } from './config/load-config';
export { CommonConfig, PublicFilesConfig, publicFilesUrl } from './config/common';
export { DEFAULT_LARGE_LISTS, LargeListConfig, largeListLimits, type LargeListLimits } from './config/large-lists';
export { createLogger, resolveLogFormat, LOG_FORMATS } from './logging/logger';
export type { Logger, LogFormat, LogFormatSetting } from './logging/logger';
export { stdoutSink, LOG_BUFFER_BYTES } from './logging/log-sink';
export type { OutputSink } from './logging/log-sink';
export { createMetricsRegistry } from './runtime/metrics';
export { handleOpsRequest, startOpsServer, serverPort } from './runtime/ops-server';
export type { HealthState } from './runtime/ops-server';
export { busSizes, openBus, openDocStore, openBlobStore } from './runtime/adapters';
export { runProcess, stopAll } from './runtime/service-runner';
export { nodeVersionProblem, REQUIRED_NODE_MAJOR } from './runtime/node-version';
export type { Stoppable } from './runtime/service-runner';
export type { ServiceDeps } from './runtime/service-deps';
export { serveAll, reply, type ServeOptions } from './runtime/serve-all';
export { KeptAnswers, type KeptAnswerDoc } from './runtime/kept-answers';
export type { RouteHandlers } from './runtime/serve-all';
export { serveRequests, checkedEvent, checkedJob, messageCheck } from './runtime/checked-messages';
export type { CheckedHandler, CheckedHandlers } from './runtime/checked-messages';
export { serveEvents, listenEvents, serveJobs } from './runtime/serve-deliveries';
export type { Delivered, EventConsumer, EventConsumers, JobWorker, JobWorkers } from './runtime/serve-deliveries';
export { bootService } from './runtime/boot';
export type { BootOptions, CommonConfigValues } from './runtime/boot';
export { isReadyMessage } from './runtime/launcher-ipc';
export type { ReadyMessage } from './runtime/launcher-ipc';
export { InstrumentedBus } from './bus/instrumented-bus';
export { DEFAULT_DRAIN_MS } from './bus/pull-worker';
export { busMetrics } from './bus/bus-metrics';
export type { BusMetrics } from './bus/bus-metrics';
export { withRequestId, currentRequestId } from './bus/request-context';
export type { HandlerContext } from './runtime/serve-all';
export { Counter, Gauge, Histogram } from 'prom-client';
export { backfillPartners } from './runtime/partner-backfill';
export { SHUTDOWN_GRACE_MS } from './runtime/service-runner';
export { compareAndSet, changedFields, REVISION_FIELD } from './doc-store/compare-and-set';
export type { CompareAndSetOptions, Decision } from './doc-store/compare-and-set';
export { clientError, isDecompressionError } from './runtime/http-client-error';
export { errorCode, errorMessage, fieldOf } from './basics/error-fields';
export { isJsonObject } from './basics/json-object';
export { sealWithKey, openWithKey } from './basics/gcm-seal';
export { asBuffer, byteChunks } from './blob-store/byte-chunks';
export { CircuitBreakerBus } from './bus/circuit-breaker-bus';
export type { CircuitOptions } from './bus/circuit-breaker-bus';
export { BusPayloadError, NoRespondersError, ResponderLostError, RetryLaterError } from './bus/bus-errors';
export { sendBlob } from './http/send-blob';
export type { BlobReply } from './http/send-blob';
export { decideRange } from './http/range';
export type { RangeDecision } from './http/range';
export { strongEtag, notModified, ifRangeMatches } from './http/conditional';
export { assertKey, resolveRange } from './blob-store/blob-checks';
export { BlobStoreUnavailableError } from './blob-store/blob-store-unavailable-error';
export type { BlobStoreFailure } from './blob-store/blob-store-unavailable-error';
export { probeBlobStore } from './blob-store/probe-blob-store';
export { normalizeKeyPrefix, checkEndpointUrl } from './blob-store/remote-options';
export * from './secrets';
export { claimDataDir, makePrivateDir } from './data-dir/claim-data-dir';
export { sweepScratch, type SweepOptions, type SweepResult } from './scratch/scratch-sweep';
export {
  claimWorkerDir,
  HEARTBEAT_MS,
  OWNER_FILE,
  WORKER_PREFIX,
  type OwnerRecord,
  type WorkerDir,
} from './scratch/worker-dir';
export { SCRATCH_SUBDIR, scratchRootOf, sweepDataDirScratch } from './scratch/data-dir-scratch';
export type { DataDirClaim } from './data-dir/claim-data-dir';
export { lockDir, DataDirLockedError, LOCK_FILE } from './data-dir/dir-lock';
export type { DirLock } from './data-dir/dir-lock';
export { HttpServerConfig, httpTimeouts, DEFAULT_HTTP_TIMEOUTS } from './config/http-server';
export type { HttpTimeouts } from './config/http-server';
export { httpServerOptions, cutSlowBodies } from './http/slow-clients';
export { closeEarlyAnswers, EARLY_ANSWER_DRAIN, type EarlyAnswerDrain } from './http/early-answers';
export { drainingListener, type DrainingListener } from './http/drain-listener';
export { isForbiddenAddress } from './net/address-ranges';
export { AddressNotAllowedError, ADDRESS_NOT_ALLOWED } from './net/address-not-allowed-error';
export { guardedLookup } from './net/guarded-lookup';
export { GuardedHttpAgent, GuardedHttpsAgent, outboundAgents } from './net/guarded-agents';
export type { OutboundAgents, GuardOptions } from './net/guarded-agents';
export { assertPublicUrl } from './net/check-outbound-url';
export { docStoreSpans, blobStoreSpans } from './runtime/store-spans';
export type { TraceCarrier } from './bus/port';
export { inSpan, failSpan, activeTraceIds, SpanKind } from './tracing/span-helpers';
export { quietly, backgroundWork } from './tracing/quiet';
export { startTracing, stopTracing, tracingStarted, tracingSummary } from './tracing/start-tracing';
export { SIGNATURE_HEADER, nextAttemptDelayMs, signCallback, verifyCallback } from './callbacks/callback-signature';
export { callbackUrlProblem, redactUrl } from './callbacks/callback-url';
export { sendSignedCallback } from './callbacks/signed-callback';
export type { SendOutcome, SignedCallbackRequest } from './callbacks/signed-callback';
