import {
  Subjects,
  UnavailableError,
  type LiveStartRequest,
  type SealedTranscodeRequest,
  type TranscodeRequest,
} from '@patchbay/contracts';
import { sealedTranscode } from '../sealed-transcode';
import type { TranscoderContext } from './context';
import { unavailable } from './unavailable';

/**
 * Transcoding on request: a download-time copy (`?f=` on the file server; given up and answered 503
 * when this replica stops, which the file server takes as "ask another replica"), made whole or
 * sent as it is made (`stream`: live/live-runs.ts), and a sealed
 * file's transcode into a new sealed blob. Refused at once, 503 naming it, when the target's
 * encoder is missing here.
 */
export function transcodeHandlers(ctx: TranscoderContext) {
  return {
    [Subjects.transcoder.transcode]: async (req: TranscodeRequest) => {
      const missing = ctx.toolkit.cannotWrite(req.target);
      if (missing) throw unavailable(missing, 'f');
      try {
        return { size: await ctx.copy(req) };
      } catch (err) {
        if (!ctx.stopping.aborted) throw err;
        ctx.jobs.log.info({ output_key: req.output_key }, 'download-time transcode given up: this replica is stopping');
        throw new UnavailableError({ message: 'this transcoder is stopping; ask again' });
      }
    },
    [Subjects.transcoder.stream]: async (req: LiveStartRequest) => {
      const missing = ctx.toolkit.cannotWrite(req.target);
      if (missing) throw unavailable(missing, 'f');
      if (ctx.stopping.aborted) throw new UnavailableError({ message: 'this transcoder is stopping; ask again' });
      return ctx.live.start(req);
    },
    [Subjects.transcoder.sealedTranscode]: async (req: SealedTranscodeRequest) => {
      const missing = ctx.toolkit.cannotWrite(req.target);
      if (missing) throw unavailable(missing, 'desired_format');
      return ctx.measured('upload', () => sealedTranscode(ctx.jobs, req));
    },
  };
}
