import { Type, type Static } from '@sinclair/typebox';
import { Subjects } from '../subjects';
import type { PayloadSpec, RequestSpec } from './message-spec';

/**
 * The transcoder's bus messages: a probe and a download-time copy (requests, from storage and the
 * file server: clients/transcoder-client.ts), and the upload-time job storage enqueues. Served by
 * services/transcoder. Formats are names of the media-formats table; an unknown target is the
 * transcoder's 422 (naming the field that asked), not a malformed message.
 */

const Sid = Type.String({ minLength: 1, maxLength: 64 });
const BlobKey = Type.String({ minLength: 1, maxLength: 1024 });
const FormatName = Type.String({ minLength: 1, maxLength: 200 });
const NullableFormat = Type.Union([FormatName, Type.Null()]);
/**
 * An age file's own key (base64 of 16 bytes): the blob is an encrypted upload, read back with it
 * into scratch only (decisions §43). Travels in requests only, never in a durable job or event.
 */
const FileKey = Type.String({ minLength: 24, maxLength: 24 });
const Kbits = Type.Union([Type.Integer({ minimum: 1, maximum: 100000 }), Type.Null()]);

/** Longest the transcoder lets ffprobe run on one file: a probe answers within this, or fails (its own limit). */
export const PROBE_RUN_MS = 10_000;
/**
 * How long a prober (storage) waits for a probe's answer by default: ffprobe's own limit plus the blob's copy to the
 * transcoder's scratch, so a slow probe that the transcoder still completes is not given up on before it answers.
 */
export const PROBE_WAIT_MS = PROBE_RUN_MS + 5_000;

/**
 * `target`: the format the file is to be transcoded to; the transcoder then also checks it can write it (503 naming
 * what it lacks).
 */
export const ProbeRequestSchema = Type.Object({
  blob_key: BlobKey,
  format: Type.Optional(NullableFormat),
  target: Type.Optional(FormatName),
  file_key: Type.Optional(FileKey),
});
export type ProbeRequest = Static<typeof ProbeRequestSchema>;
/** From ffprobe: seconds, the format in the table's names where it maps, bits per second. */
export const ProbeReplySchema = Type.Object({
  duration: Type.Union([Type.Number(), Type.Null()]),
  format: Type.Union([Type.String(), Type.Null()]),
  bitrate: Type.Union([Type.Number(), Type.Null()]),
});
export type ProbeReply = Static<typeof ProbeReplySchema>;

/**
 * A download-time copy of `blob_key` in `target` (at `bitrate` kbit/s), stored at `output_key`.
 * `claim_token`: the lease storage gave the caller for this copy (messages/copies.ts): the
 * transcoder renews it while it works and reports the stored copy under it.
 */
export const TranscodeRequestSchema = Type.Object({
  blob_key: BlobKey,
  source_format: NullableFormat,
  target: FormatName,
  bitrate: Kbits,
  output_key: BlobKey,
  claim_token: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type TranscodeRequest = Static<typeof TranscodeRequestSchema>;
export const TranscodeReplySchema = Type.Object({ size: Type.Integer({ minimum: 0 }) });
export type TranscodeReply = Static<typeof TranscodeReplySchema>;

/** A streamed download-time copy: the transcode request and who listens first (a random id per download). */
const Listener = Type.String({ minLength: 1, maxLength: 64 });
export const LiveStartRequestSchema = Type.Composite([TranscodeRequestSchema, Type.Object({ listener: Listener })]);
export type LiveStartRequest = Static<typeof LiveStartRequestSchema>;
/** `live`: where the run's bytes are pulled (LivePull); `size`: the copy was made whole and stored. */
export const LiveStartReplySchema = Type.Union([
  Type.Object({ live: Type.String({ minLength: 1, maxLength: 256 }) }),
  Type.Object({ size: Type.Integer({ minimum: 0 }) }),
]);
export type LiveStartReply = Static<typeof LiveStartReplySchema>;

/**
 * Prefix of each transcoder replica's own subject for its live runs (`<prefix>.<replica id>`, no
 * queue group, not in Subjects: one per replica): `{key, listener, offset}` → the bytes from
 * `offset` as they come (LivePull below). Outside `svc.transcoder.`: a replica that died fails
 * only its own subject's calls, which must not open the circuit of every transcoder (circuit-breaker-bus.ts).
 */
export const LIVE_SUBJECT_PREFIX = 'live.transcoder';

/** The most bytes one pull answers (base64 in the reply: a third more on the wire). */
export const LIVE_PULL_BYTES = 128 * 1024;
/**
 * One pull of a live run's bytes from `offset` (at most LIVE_PULL_BYTES; answered as soon as there
 * are any, or empty after a short wait). `leave`: this listener is gone (its download was closed).
 * A listener that has not pulled for a while counts as gone too (decisions §53).
 */
export const LivePullRequestSchema = Type.Object({
  key: BlobKey,
  listener: Listener,
  offset: Type.Integer({ minimum: 0 }),
  leave: Type.Optional(Type.Boolean()),
});
export type LivePullRequest = Static<typeof LivePullRequestSchema>;
/**
 * `data`: base64 of the bytes from `offset`; `end`: ffmpeg finished and these were the last;
 * `progress`: how much of the source ffmpeg has read (0–100: what the rule for a run whose
 * listeners have all gone looks at, decisions §53).
 */
export const LivePullReplySchema = Type.Object({
  data: Type.String(),
  end: Type.Boolean(),
  progress: Type.Number({ minimum: 0, maximum: 100 }),
});
export type LivePullReply = Static<typeof LivePullReplySchema>;

/** The durable upload-time job (msgId `transcode-<file_sid>`): replace a file's data by its transcoding. */
export const UploadJobSchema = Type.Object({
  file_sid: Sid,
  partner_sid: Sid,
  blob_key: BlobKey,
  source_format: NullableFormat,
  target: FormatName,
  bitrate: Kbits,
});
export type UploadJob = Static<typeof UploadJobSchema>;

/**
 * What an upload-time job reports, as events (durable, `evt.file.transcoding.*`): storage consumes
 * them, so the flow runs one way — storage enqueues, the transcoder reports — and a report made
 * while storage is away waits in the stream. `source_blob_key` is the blob the job read: a report
 * about an older blob (a redelivered job) is ignored, and its result removed, by storage.
 */
export const TranscodingProgressEventSchema = Type.Object({
  file_sid: Sid,
  source_blob_key: BlobKey,
  progress: Type.Number({ minimum: 0, maximum: 100 }),
});
export type TranscodingProgressEvent = Static<typeof TranscodingProgressEventSchema>;
/** The result, written at `blob_key` (next to the source), described. */
export const TranscodingDoneEventSchema = Type.Object({
  file_sid: Sid,
  source_blob_key: BlobKey,
  blob_key: BlobKey,
  file_bytes: Type.Integer({ minimum: 0 }),
  content_format: FormatName,
  mime_type: Type.String({ minLength: 1 }),
  content_duration: Type.Union([Type.Number(), Type.Null()]),
  content_bitrate: Type.Union([Type.Number(), Type.Null()]),
});
export type TranscodingDoneEvent = Static<typeof TranscodingDoneEventSchema>;
/** Why it could not be done (for the log: the file keeps its data). */
export const TranscodingFailedEventSchema = Type.Object({
  file_sid: Sid,
  source_blob_key: BlobKey,
  reason: Type.String(),
});
export type TranscodingFailedEvent = Static<typeof TranscodingFailedEventSchema>;

/** Upload-time transcoding of an encrypted upload, within the upload's commit (decisions §43). */
export const SealedTranscodeRequestSchema = Type.Object({
  blob_key: BlobKey,
  file_key: FileKey,
  source_format: NullableFormat,
  target: FormatName,
  bitrate: Kbits,
  output_key: BlobKey,
  recipients: Type.Array(Type.String({ minLength: 1, maxLength: 16384 }), { minItems: 1, maxItems: 4 }),
});
export type SealedTranscodeRequest = Static<typeof SealedTranscodeRequestSchema>;
/** The stored result: its age layout and the plaintext's description. */
export const SealedTranscodeReplySchema = Type.Object({
  file_bytes: Type.Integer({ minimum: 0 }),
  header_bytes: Type.Integer({ minimum: 0 }),
  plaintext_bytes: Type.Integer({ minimum: 0 }),
  content_format: FormatName,
  mime_type: Type.String({ minLength: 1 }),
  content_duration: Type.Union([Type.Number(), Type.Null()]),
  content_bitrate: Type.Union([Type.Number(), Type.Null()]),
});
export type SealedTranscodeReply = Static<typeof SealedTranscodeReplySchema>;

export const TranscoderRequests = {
  [Subjects.transcoder.sealedTranscode]: { request: SealedTranscodeRequestSchema, reply: SealedTranscodeReplySchema },
  [Subjects.transcoder.probe]: { request: ProbeRequestSchema, reply: ProbeReplySchema },
  [Subjects.transcoder.transcode]: { request: TranscodeRequestSchema, reply: TranscodeReplySchema },
  [Subjects.transcoder.stream]: { request: LiveStartRequestSchema, reply: LiveStartReplySchema },
} as const satisfies Record<string, RequestSpec>;

export const TranscoderJobs = {
  [Subjects.transcoder.uploadJob]: { payload: UploadJobSchema },
} as const satisfies Record<string, PayloadSpec>;

export const TranscoderEvents = {
  [Subjects.events.fileTranscodingProgress]: { payload: TranscodingProgressEventSchema },
  [Subjects.events.fileTranscodingDone]: { payload: TranscodingDoneEventSchema },
  [Subjects.events.fileTranscodingFailed]: { payload: TranscodingFailedEventSchema },
} as const satisfies Record<string, PayloadSpec>;
