import {
  PlaybackQuerySchema,
  RecordingQuerySchema,
  Subjects,
  compileValidator,
  type PlaybackOpenRequest,
  type PublishedCheckRequest,
  type RecordingPrepareRequest,
} from '@patchbay/contracts';
import type { StorageContext } from '../context';
import { checkPublished, findPlayback, operatorOnly, prepareRecording } from '../operations/media';

const validateRecordingQuery = compileValidator(RecordingQuerySchema, { fromStrings: true });
const validatePlaybackQuery = compileValidator(PlaybackQuerySchema, { fromStrings: true });

/** The media plane's storage side (operations/media.ts): recordings, playback, greetings. */
export function mediaHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.recordingPrepare]: async (req: RecordingPrepareRequest) => {
      operatorOnly(req.principal);
      return prepareRecording(ctx, req.principal, validateRecordingQuery(req.query), req.idempotency_key);
    },
    [Subjects.storage.playbackOpen]: async (req: PlaybackOpenRequest) => {
      operatorOnly(req.principal);
      return findPlayback(ctx, validatePlaybackQuery(req.query));
    },
    [Subjects.storage.publishedCheck]: (req: PublishedCheckRequest) => checkPublished(ctx, req.partner_sid, req.uri),
  };
}
