import { Type, type Static } from '@sinclair/typebox';
import { Subjects } from '../subjects';
import type { PayloadSpec, RequestSpec } from './message-spec';

/**
 * The transcoder's bus messages: a probe and a download-time copy (requests, from storage and the
 * file server: clients/transcoder-client.ts), and the upload-time job storage enqueues. Served by
 * services/transcoder. Formats are names of the media-formats table; an unknown target is the
 * transcoder's 422 (naming the field that asked), not a malformed message.
 */

const BlobKey = Type.String({ minLength: 1, maxLength: 1024 });
const FormatName = Type.String({ minLength: 1, maxLength: 200 });
const NullableFormat = Type.Union([FormatName, Type.Null()]);
const Kbits = Type.Union([Type.Integer({ minimum: 1, maximum: 100000 }), Type.Null()]);

/** `target`: the format the file is to be transcoded to; the transcoder then also checks it can write it (503 naming what it lacks). */
export const ProbeRequestSchema = Type.Object({ blob_key: BlobKey, format: Type.Optional(NullableFormat), target: Type.Optional(FormatName) });
export type ProbeRequest = Static<typeof ProbeRequestSchema>;
/** From ffprobe: seconds, the format in the table's names where it maps, bits per second. */
export const ProbeReplySchema = Type.Object({
  duration: Type.Union([Type.Number(), Type.Null()]),
  format: Type.Union([Type.String(), Type.Null()]),
  bitrate: Type.Union([Type.Number(), Type.Null()]),
});
export type ProbeReply = Static<typeof ProbeReplySchema>;

/** A download-time copy of `blob_key` in `target` (at `bitrate` kbit/s), stored at `output_key`. */
export const TranscodeRequestSchema = Type.Object({ blob_key: BlobKey, source_format: NullableFormat, target: FormatName, bitrate: Kbits, output_key: BlobKey });
export type TranscodeRequest = Static<typeof TranscodeRequestSchema>;
export const TranscodeReplySchema = Type.Object({ size: Type.Integer({ minimum: 0 }) });
export type TranscodeReply = Static<typeof TranscodeReplySchema>;

/** The durable upload-time job (msgId `transcode-<file_sid>`): replace a file's data by its transcoding. */
export const UploadJobSchema = Type.Object({
  file_sid: Type.String({ minLength: 1, maxLength: 64 }),
  partner_sid: Type.String({ minLength: 1, maxLength: 64 }),
  blob_key: BlobKey,
  source_format: NullableFormat,
  target: FormatName,
  bitrate: Kbits,
});
export type UploadJob = Static<typeof UploadJobSchema>;

export const TranscoderRequests = {
  [Subjects.transcoder.probe]: { request: ProbeRequestSchema, reply: ProbeReplySchema },
  [Subjects.transcoder.transcode]: { request: TranscodeRequestSchema, reply: TranscodeReplySchema },
} as const satisfies Record<string, RequestSpec>;

export const TranscoderJobs = {
  [Subjects.transcoder.uploadJob]: { payload: UploadJobSchema },
} as const satisfies Record<string, PayloadSpec>;
