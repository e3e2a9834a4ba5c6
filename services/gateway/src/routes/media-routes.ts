import {
  FileSchema,
  ListEnvelopeSchema,
  PlaybackQuerySchema,
  RecordingQuerySchema,
  Subjects,
  VoicemailCallbackDeliverySchema,
} from '@patchbay/contracts';
import { Type } from '@sinclair/typebox';
import { playbackRoute } from '../media/playback-route';
import { recordingRoute } from '../media/recording-route';
import type { RouteDef } from '../http/route-def';

/** Only the operator partner holds it (docs/interface-notes.md, Media plane). */
const MEDIA = ['media.manage'];

/** The query schemas as parameters: only their declared properties (the services ignore the rest). */
const declared = (s: typeof RecordingQuerySchema | typeof PlaybackQuerySchema) =>
  Type.Object(s.properties, { additionalProperties: false });

/** The media plane: recordings in, playback out, by the endpoint rules; and the Voicemail callbacks it sends. */
export const MEDIA_ROUTES: RouteDef[] = [
  {
    method: 'post',
    path: '/media/recordings',
    subject: Subjects.storage.recordingPrepare,
    scopes: MEDIA,
    body: 'stream',
    handler: recordingRoute,
    doc: {
      summary: 'Store a recording made by an endpoint (operator only)',
      description:
        "The container: `container_sid` (FlexML only) → the endpoint's " +
        "`properties.container_sid` → the partner's default. Types that " +
        'record: conference, flexml, voicemail. A Voicemail recording ' +
        'schedules its callback. See docs/media-plane.md.',
      query: declared(RecordingQuerySchema),
      request: { content: { 'audio/*': null, 'application/octet-stream': null } },
      responses: { 201: FileSchema },
      errors: [404, 413, 415, 422],
    },
  },
  {
    method: 'get',
    path: '/media/playback',
    subject: Subjects.storage.playbackOpen,
    scopes: MEDIA,
    handler: playbackRoute,
    doc: {
      summary: 'Play a file as an endpoint may (operator only)',
      description:
        'By `file_sid` or by `uri` (a publish_uri): neither or both is a 400; ' +
        '403 naming the rule that forbids it; an endpoint type that plays ' +
        'nothing is a 422; an encrypted file is a 409 (media servers cannot ' +
        'play it). Never changes `date_last_accessed`.',
      query: declared(PlaybackQuerySchema),
      headers: { Range: 'bytes=<start>-<end>: 206 with Content-Range' },
      responses: { 200: { binary: ['*/*'] }, 206: { binary: ['*/*'], description: 'The range asked for.' } },
      errors: [404, 409, 416, 422],
    },
  },
  {
    method: 'get',
    path: '/media/callbacks',
    subject: Subjects.endpoint.callbackList,
    scopes: MEDIA,
    doc: {
      summary: 'List the Voicemail callbacks sent (operator only)',
      description: 'Filter example: `state eq "failed"`.',
      list: 'offset',
      responses: { 200: ListEnvelopeSchema(VoicemailCallbackDeliverySchema) },
    },
  },
];
