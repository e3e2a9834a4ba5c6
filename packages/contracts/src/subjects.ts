/**
 * Every bus subject, once. Requests `svc.<service>.<resource>.<action>` (served by a queue group
 * named after the service), events `evt.<resource>.<past-tense>`, durable jobs `job.<worker>.<task>`.
 * IDs travel in the payload, never in the subject.
 */
export const Subjects = {
  identity: {
    authenticateToken: 'svc.identity.auth.token',
    authenticateBasic: 'svc.identity.auth.basic',
    partnerCreate: 'svc.identity.partners.create',
    partnerGet: 'svc.identity.partners.get',
    partnerUpdate: 'svc.identity.partners.update',
    partnerList: 'svc.identity.partners.list',
    /** Internal: a partner by SID, no caller check (other services' `with_related`). */
    partnerLookup: 'svc.identity.partners.lookup',
    /** Internal: `{after?, limit}` → `{partner_sids}` in SID order (start-up backfills). */
    partnerSids: 'svc.identity.partners.sids',
    tokenIssue: 'svc.identity.tokens.issue',
    tokenList: 'svc.identity.tokens.list',
    tokenGet: 'svc.identity.tokens.get',
    tokenUpdate: 'svc.identity.tokens.update',
    tokenRevoke: 'svc.identity.tokens.revoke',
    bootstrap: 'svc.identity.bootstrap',
    /** Internal, from the gateway: `{}` → `{ready}`, true once the operator partner exists (credentials can work). */
    ready: 'svc.identity.ready',
    /**
     * Internal, from the gateway: the Idempotency-Key records (messages/idempotency.ts). `begin` claims a key for
     * a request (or says why not: still running, another request, an answer to replay); `finish` keeps the
     * answer; `release` forgets a claim whose answer is not kept; `renew` extends the claim of a long request.
     */
    idempotencyBegin: 'svc.identity.idempotency.begin',
    idempotencyFinish: 'svc.identity.idempotency.finish',
    idempotencyRelease: 'svc.identity.idempotency.release',
    idempotencyRenew: 'svc.identity.idempotency.renew',
  },
  records: {
    countryList: 'svc.records.countries.list',
    countryGet: 'svc.records.countries.get',
    callList: 'svc.records.calls.list',
    callGet: 'svc.records.calls.get',
    /** A batch of call records from bulk ingest: `{principal, records, first_position}`. */
    callIngest: 'svc.records.calls.ingest',
    messageList: 'svc.records.messages.list',
    messageGet: 'svc.records.messages.get',
    messageIngest: 'svc.records.messages.ingest',
    /** Bulk exports (`…/call_drs/exports`, `…/message_drs/exports`): a GatewayRequest each → RecordExport. */
    callExportCreate: 'svc.records.call-exports.create',
    callExportList: 'svc.records.call-exports.list',
    callExportGet: 'svc.records.call-exports.get',
    callExportCancel: 'svc.records.call-exports.cancel',
    messageExportCreate: 'svc.records.message-exports.create',
    messageExportList: 'svc.records.message-exports.list',
    messageExportGet: 'svc.records.message-exports.get',
    messageExportCancel: 'svc.records.message-exports.cancel',
    /** Usage (`…/call_drs/usage`, `…/message_drs/usage`): a GatewayRequest → CallUsage / MessageUsage. */
    callUsage: 'svc.records.calls.usage',
    messageUsage: 'svc.records.messages.usage',
  },
  endpoint: {
    create: 'svc.endpoint.endpoints.create',
    list: 'svc.endpoint.endpoints.list',
    get: 'svc.endpoint.endpoints.get',
    update: 'svc.endpoint.endpoints.update',
    replace: 'svc.endpoint.endpoints.replace',
    delete: 'svc.endpoint.endpoints.delete',
    /** Internal: `{endpoint_sid}` → EndpointLookupReply (any partner's: the media plane's rules need them). */
    lookup: 'svc.endpoint.endpoints.lookup',
    /**
     * Internal, from storage: `{partner_sid, container_sid}` → the endpoints naming that container (a delete checks).
     */
    usingContainer: 'svc.endpoint.endpoints.using-container',
    /**
     * Internal, from storage: a recording stored for a Voicemail endpoint (VoicemailCallbackSchedule) → `{scheduled}`.
     */
    callbackSchedule: 'svc.endpoint.callbacks.schedule',
    /** Operator: the Voicemail callback deliveries, a list (GET /media/callbacks). */
    callbackList: 'svc.endpoint.callbacks.list',
  },
  storage: {
    containerCreate: 'svc.storage.containers.create',
    containerList: 'svc.storage.containers.list',
    containerGet: 'svc.storage.containers.get',
    containerUpdate: 'svc.storage.containers.update',
    containerReplace: 'svc.storage.containers.replace',
    containerDelete: 'svc.storage.containers.delete',
    /** Internal: `{partner_sid, container_sid}` → the container, or 404 when it is not that partner's. */
    containerCheck: 'svc.storage.containers.check',
    /** Internal: `{partner_sid}` → the partner's default container. */
    containerDefault: 'svc.storage.containers.default',
    keyCreate: 'svc.storage.encryption-keys.create',
    keyList: 'svc.storage.encryption-keys.list',
    keyGet: 'svc.storage.encryption-keys.get',
    keyUpdate: 'svc.storage.encryption-keys.update',
    keyDelete: 'svc.storage.encryption-keys.delete',
    uploadPrepare: 'svc.storage.files.prepare',
    uploadCommit: 'svc.storage.files.commit',
    uploadAbort: 'svc.storage.files.abort',
    /**
     * `{principal}` → `{file_sid, blob_key, max_bytes}`: a pending upload whose bytes come before its
     * fields (multipart with `data` first); `uploadPrepare` with that `file_sid` and the size then
     * checks it, before commit.
     */
    uploadReserve: 'svc.storage.files.reserve',
    /**
     * From records: a record export's file about to stream in (ExportPrepareRequest) → Prepared; committed as an
     * upload. Unlike `uploadPrepare` (the API's), an external container may be its target (decisions §55).
     */
    exportPrepare: 'svc.storage.exports.prepare',
    fileList: 'svc.storage.files.list',
    fileGet: 'svc.storage.files.get',
    fileUpdate: 'svc.storage.files.update',
    fileReplace: 'svc.storage.files.replace',
    fileDelete: 'svc.storage.files.delete',
    /** Download by SID: resolves the blob and bumps `date_last_accessed`. */
    fileOpen: 'svc.storage.files.open',
    /** Public file server: `{id}` → the published file, or 404 (never touches date_last_accessed). */
    fileResolvePublic: 'svc.storage.files.resolve',
    /** Media plane: a recording about to stream in (RecordingPrepareRequest) → PrepareReply; committed as an upload. */
    recordingPrepare: 'svc.storage.media.prepare',
    /**
     * Internal, for blob routing (packages/blob-routing): `{store_id}` → BlobStoreOpenReply, the
     * external store a blob key `ext/<store_id>/…` lives in, credentials opened.
     */
    blobStoreOpen: 'svc.storage.blob-stores.open',
    /** Media plane: the file an endpoint may play (PlaybackOpenRequest) → PlaybackOpenReply, or 403/404. */
    playbackOpen: 'svc.storage.media.open',
    /**
     * `{partner_sid, uri}` → `{file_sid}` when `uri` is the publish_uri of a published file of that partner; else 404.
     */
    publishedCheck: 'svc.storage.files.published',
    /**
     * Threshold-worker (internal): `{after, limit}` → the delete_lru containers due a sweep, paged by container_sid.
     */
    sweepContainers: 'svc.storage.sweep.containers',
    /** Threshold-worker (internal): `{date, after, limit}` → writes a page of containers' snapshots of that day. */
    usageSnapshot: 'svc.storage.usage.snapshot',
    /** `GET /storage/containers/{sid}/usage`: a GatewayRequest → ContainerUsage. */
    containerUsage: 'svc.storage.containers.usage',
    /**
     * `{container_sid, owner, lease_ms, limit}` → claims the container's sweep lease; its counts and least recently
     * used files.
     */
    sweepCandidates: 'svc.storage.sweep.candidates',
    /**
     * `{file_sid, reason, container_sid?, owner?, date_last_accessed?}` → deletes one file if it still qualifies
     * (idempotent).
     */
    sweepDelete: 'svc.storage.sweep.delete',
    /** `{container_sid, owner}` → gives a sweep lease back before it expires. */
    sweepRelease: 'svc.storage.sweep.release',
    /** `{limit}` → files whose `expires_at` has passed (lifecycle_action delete). */
    sweepExpired: 'svc.storage.sweep.expired',
    /**
     * The cache of download-time transcoded copies (messages/copies.ts): `{key, file_sid}` → the copy is ready, or
     * the caller is to have it made (a lease), or another is making it. One maker per copy across every replica.
     */
    copyClaim: 'svc.storage.copies.claim',
    /** `{key, token}` → `{held}`: the transcoder making a copy keeps its lease alive (it is alive). */
    copyRenew: 'svc.storage.copies.renew',
    /** `{key, token, size}` → the copy is stored: counted, and the cache kept within its budget (LRU). */
    copyStored: 'svc.storage.copies.stored',
    /** `{key, token}` → the copy could not be made: its lease is given back. */
    copyRelease: 'svc.storage.copies.release',
    /** `{keys}` → these copies are being read (least recently used order; never evicted while read). */
    copyUsed: 'svc.storage.copies.used',
    /**
     * Durable job `{file_sid, not_before}`: describe a stored media file (duration, format) from a probe, retried
     * with backoff until the probe answers or shows the file is not media (decisions §49).
     */
    probeJob: 'job.storage.probe',
  },
  transcoder: {
    /** `{blob_key, format}` → `{duration, format, bitrate}` from ffprobe. */
    probe: 'svc.transcoder.media.probe',
    /** Download-time: `{blob_key, source_format, target, bitrate, output_key}` → `{size}` once the copy is stored. */
    transcode: 'svc.transcoder.media.transcode',
    /**
     * Download-time, streamed (decisions §53): `TranscodeRequest + {listener}` → `{live}`, the subject of the run's
     * bytes as ffmpeg writes them (the copy is stored when it ends), or `{size}` for a target that cannot be written
     * to a pipe (made whole first, as `transcode`).
     */
    stream: 'svc.transcoder.media.stream',
    /**
     * Upload-time transcoding of an encrypted upload, done within the upload (SealedTranscodeRequest): the age file
     * at `blob_key` is decrypted into scratch with its file key, transcoded, and the result encrypted to `recipients`.
     */
    sealedTranscode: 'svc.transcoder.media.sealed-transcode',
    /** Upload-time durable job: `{file_sid, partner_sid, blob_key, source_format, target, bitrate}`. */
    uploadJob: 'job.transcoder.upload',
  },
  push: {
    applicationCreate: 'svc.push.applications.create',
    applicationList: 'svc.push.applications.list',
    applicationGet: 'svc.push.applications.get',
    applicationUpdate: 'svc.push.applications.update',
    applicationReplace: 'svc.push.applications.replace',
    applicationDelete: 'svc.push.applications.delete',
    deviceCreate: 'svc.push.devices.create',
    deviceList: 'svc.push.devices.list',
    deviceGet: 'svc.push.devices.get',
    deviceUpdate: 'svc.push.devices.update',
    deviceReplace: 'svc.push.devices.replace',
    deviceDelete: 'svc.push.devices.delete',
    notificationSend: 'svc.push.notifications.send',
  },
  thresholdWorker: {
    /**
     * Durable job `{container_sid, window}` (msgId `sweep:<container_sid>:<window>`): bring a delete_lru container to
     * its targets.
     */
    sweepJob: 'job.threshold-worker.sweep',
    /** Durable job `{window}` (msgId `expire:<window>`): delete the files whose lifecycle_ttl has passed. */
    expireJob: 'job.threshold-worker.expire',
    /** Durable job `{date}` (msgId `usage:<window>`): every container's usage snapshot of that UTC day. */
    usageJob: 'job.threshold-worker.usage',
  },
  events: {
    partnerCreated: 'evt.partner.created',
    partnerUpdated: 'evt.partner.updated',
    tokenRevoked: 'evt.token.revoked',
    callCompleted: 'evt.call.completed',
    messageRecorded: 'evt.message.recorded',
    fileCreated: 'evt.file.created',
    fileUpdated: 'evt.file.updated',
    fileDeleted: 'evt.file.deleted',
    /** From the transcoder, while an upload-time job runs: `{file_sid, source_blob_key, progress}` (0..100). */
    fileTranscodingProgress: 'evt.file.transcoding.progress',
    /**
     * From the transcoder: an upload-time job's result, written next to its source (storage swaps it in, or removes
     * it).
     */
    fileTranscodingDone: 'evt.file.transcoding.done',
    /** From the transcoder: an upload-time job that could not be done (the file keeps its data). */
    fileTranscodingFailed: 'evt.file.transcoding.failed',
  },
} as const;

/** Queue group of each service: members share its requests. */
export const Queues = {
  identity: 'identity',
  records: 'records',
  gateway: 'gateway',
  endpoint: 'endpoint',
  storage: 'storage',
  push: 'push',
  fileServer: 'file-server',
  transcoder: 'transcoder',
  thresholdWorker: 'threshold-worker',
} as const;

/** Durable stream names (NATS JetStream). */
export const Streams = {
  events: { name: 'PATCHBAY_EVENTS', subjects: ['evt.>'] },
  jobs: { name: 'PATCHBAY_JOBS', subjects: ['job.>'] },
} as const;
