import type { SealedTranscodeReply, SealedTranscodeRequest } from '@patchbay/contracts';
import { convert, type JobDeps } from './convert';
import { FORMATS } from './ffmpeg/formats';

/**
 * Upload-time transcoding of an encrypted upload (decisions §43), as a request within the upload:
 * the age file is read back with its file key into this job's scratch, transcoded there, the
 * result stored encrypted to the container's keys, and the scratch removed before the answer. The
 * file key never outlives the request, so, unlike a plain upload, this cannot be a durable job.
 */
export async function sealedTranscode(deps: JobDeps, req: SealedTranscodeRequest): Promise<SealedTranscodeReply> {
  const result = await convert(
    deps,
    {
      blob_key: req.blob_key,
      source_format: req.source_format,
      target: req.target,
      bitrate: req.bitrate,
      output_key: req.output_key,
    },
    { describe: true, fileKey: Buffer.from(req.file_key, 'base64'), sealTo: req.recipients },
  );
  if (!result.sealed) throw new Error('a sealed transcode stored no age file'); // unreachable: sealTo was given
  deps.log.info({ output_key: req.output_key, target: req.target, bytes: result.size }, 'encrypted upload transcoded');
  return {
    file_bytes: result.sealed.file_bytes,
    header_bytes: result.sealed.header_bytes,
    plaintext_bytes: result.sealed.plaintext_bytes,
    content_format: req.target,
    mime_type: FORMATS[req.target].mime,
    content_duration: result.probe?.duration ?? null,
    content_bitrate: result.probe?.bitrate ?? null,
  };
}
