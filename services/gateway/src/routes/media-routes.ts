import { Subjects as S } from '@patchbay/contracts';
import { playbackRoute } from '../media/playback-route';
import { recordingRoute } from '../media/recording-route';
import type { RouteDef } from './route-def';

/** Only the operator partner holds it (reference-facts "Media plane"). */
const MEDIA = ['media.manage'];

/** The media plane: recordings in, playback out, by the endpoint rules; and the Voicemail callbacks it sends. */
export const MEDIA_ROUTES: RouteDef[] = [
  { method: 'post', path: '/media/recordings', subject: S.storage.recordingPrepare, scopes: MEDIA, body: 'stream', handler: recordingRoute },
  { method: 'get', path: '/media/playback', subject: S.storage.playbackOpen, scopes: MEDIA, handler: playbackRoute },
  { method: 'get', path: '/media/callbacks', subject: S.endpoint.callbackList, scopes: MEDIA },
];
