import {
  Subjects,
  type LiveStartRequest,
  type SealedTranscodeRequest,
  type TranscodeRequest,
} from '@patchbay/contracts';
import type { TranscoderContext } from '../context';
import { downloadCopy, startLiveCopy, transcodeSealed } from '../operations/transcodes';

/** Transcoding on request: a download-time copy, made whole or sent as it is made, and a sealed file's transcode. */
export function transcodeHandlers(ctx: TranscoderContext) {
  return {
    [Subjects.transcoder.transcode]: (req: TranscodeRequest) => downloadCopy(ctx, req),
    [Subjects.transcoder.stream]: (req: LiveStartRequest) => startLiveCopy(ctx, req),
    [Subjects.transcoder.sealedTranscode]: (req: SealedTranscodeRequest) => transcodeSealed(ctx, req),
  };
}
