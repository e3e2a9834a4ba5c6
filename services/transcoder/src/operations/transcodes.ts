import {
  UnavailableError,
  type LiveStartRequest,
  type SealedTranscodeRequest,
  type TranscodeRequest,
} from '@patchbay/contracts';
import { sealedTranscode } from '../sealed-transcode';
import type { TranscoderContext } from '../context';
import { unavailable } from './unavailable';

/*
 * Transcoding on request. Each is refused at once, 503 naming it, when the target's encoder is missing here.
 */

/**
 * A download-time copy (`?f=` on the file server), made whole; given up and answered 503 when this replica stops,
 * which the file server takes as "ask another replica".
 */
export async function downloadCopy(ctx: TranscoderContext, req: TranscodeRequest) {
  const missing = ctx.toolkit.cannotWrite(req.target);
  if (missing) throw unavailable(missing, 'f');
  try {
    return { size: await ctx.copy(req) };
  } catch (err) {
    if (!ctx.stopping.aborted) throw err;
    ctx.jobs.log.info({ output_key: req.output_key }, 'download-time transcode given up: this replica is stopping');
    throw new UnavailableError({ message: 'this transcoder is stopping; ask again' });
  }
}

/** A download-time copy sent as it is made (`stream`: live/live-runs.ts). */
export async function startLiveCopy(ctx: TranscoderContext, req: LiveStartRequest) {
  const missing = ctx.toolkit.cannotWrite(req.target);
  if (missing) throw unavailable(missing, 'f');
  if (ctx.stopping.aborted) throw new UnavailableError({ message: 'this transcoder is stopping; ask again' });
  return ctx.live.start(req);
}

/** A sealed file's transcode into a new sealed blob. */
export async function transcodeSealed(ctx: TranscoderContext, req: SealedTranscodeRequest) {
  const missing = ctx.toolkit.cannotWrite(req.target);
  if (missing) throw unavailable(missing, 'desired_format');
  return ctx.measured('upload', () => sealedTranscode(ctx.jobs, req));
}
