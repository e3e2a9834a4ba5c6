import { BITRATE_FORMATS, UnprocessableError, type UploadJob } from '@patchbay/contracts';
import type { FileDoc } from './documents';

/** What an upload asked for (after defaults). */
export interface TranscodingAsk {
  type: 'file' | 'audio';
  desired_format: string | null;
  /** kbit/s */
  desired_bitrate: number | null;
}

/** What the stored data is: its format, and its bitrate in bit/s from ffprobe (null: unknown). */
export interface SourceMedia {
  format: string | null;
  bitrate: number | null;
}

/** The upload-time job to run: `bitrate` in kbit/s, null for the encoder's default. */
export interface TranscodingPlan {
  target: string;
  bitrate: number | null;
}

const takesBitrate = (format: string) => (BITRATE_FORMATS as readonly string[]).includes(format);

/**
 * The transcoding an upload gets; null: stored as it is (docs/interface-notes.md, Transcoding targets
 * and bitrates): `type` audio with
 * `desired_format`, or `desired_bitrate` on an mp3. With the source's bitrate unknown (before
 * probing) it says whether transcoding may be needed at all.
 * - `desired_bitrate` applies to lossy targets only, and never makes a file bigger: at or above the
 *   source's bitrate it is ignored, as `br` is at download.
 * - mp4 can be a target only: an mp4 source that would be transcoded is a
 *   422 naming the field that asked for it.
 */
export function planTranscoding(ask: TranscodingAsk, source: SourceMedia): TranscodingPlan | null {
  if (ask.type !== 'audio') return null;
  const target = ask.desired_format ?? (ask.desired_bitrate !== null && source.format === 'mp3' ? 'mp3' : null);
  if (!target) return null;
  const lowers =
    ask.desired_bitrate !== null && (source.bitrate === null || ask.desired_bitrate * 1000 < source.bitrate);
  const bitrate = takesBitrate(target) && lowers ? ask.desired_bitrate : null;
  if (target === source.format && bitrate === null) return null;
  if (source.format === 'mp4') {
    const field = target === 'mp4' ? 'desired_bitrate' : 'desired_format';
    throw UnprocessableError.field(
      field,
      'mp4 can be a transcoding target only: this file is mp4, so it cannot ' +
        'be transcoded (upload it without desired_format and desired_bitrate ' +
        'to store it as it is)',
    );
  }
  return { target, bitrate };
}

/** The durable job for a file waiting for its upload-time transcoding (at commit, and again after a crash). */
export function transcodingJob(
  f: Pick<FileDoc, 'file_sid' | 'partner_sid' | 'blob_key' | 'content_format'>,
  plan: TranscodingPlan,
): UploadJob {
  return {
    file_sid: f.file_sid,
    partner_sid: f.partner_sid,
    blob_key: f.blob_key,
    source_format: f.content_format,
    target: plan.target,
    bitrate: plan.bitrate,
  };
}
