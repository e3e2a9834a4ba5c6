import { Subjects, type ProbeRequest } from '@patchbay/contracts';
import type { TranscoderContext } from '../context';
import { probeBlob } from '../operations/probes';

/** Probing a stored blob for `content_duration` and the like. */
export function probeHandlers(ctx: TranscoderContext) {
  return {
    [Subjects.transcoder.probe]: (req: ProbeRequest) => probeBlob(ctx, req),
  };
}
