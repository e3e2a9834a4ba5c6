import path from 'node:path';
import { UnprocessableError, type ProbeRequest } from '@patchbay/contracts';
import { probe } from '../ffmpeg/probe';
import { FfmpegError } from '../ffmpeg/run';
import { fetchBlob, withScratch } from '../workspace';
import type { TranscoderContext } from '../context';
import { unavailable } from './unavailable';

/**
 * Probes a stored blob for `content_duration` and the like (ffprobe, in a scratch directory of its own); 422 when it
 * is not decodable audio, 503 naming what is missing when this replica cannot probe (or write the `target`).
 */
export async function probeBlob(
  ctx: TranscoderContext,
  { blob_key: key, format, target, file_key: fileKey }: ProbeRequest,
) {
  const { blobs, log, scratchDir } = ctx.jobs;
  // Storage names the target when the upload is to be transcoded: refused now, not after the 201.
  const missing = target ? ctx.toolkit.cannotWrite(target) : ctx.toolkit.cannotProbe();
  if (missing) throw unavailable(missing, target ? 'desired_format' : null);
  return ctx.measured('probe', () =>
    withScratch(scratchDir, async (dir) => {
      const file = path.join(dir, 'input');
      await fetchBlob(blobs, key, file, undefined, fileKey ? Buffer.from(fileKey, 'base64') : undefined);
      try {
        return await probe(file, format ?? null);
      } catch (err) {
        if (!(err instanceof FfmpegError)) throw err;
        log.warn({ blob_key: key, format, err: err.message }, 'ffprobe failed');
        throw UnprocessableError.field('data', 'the file is not decodable audio');
      }
    }),
  );
}
