import { Type, type Static } from '@sinclair/typebox';
import { CALLBACK_METHODS, ENDPOINT_TYPES } from './endpoint';
import { SecureIdSchema } from './detail-record';

/**
 * The media plane (docs/interface-notes.md, Media plane): operator-only routes through which the
 * platform's media servers store recordings and play stored files, under the endpoint rules.
 */

/** The types whose applications record (conference, FlexML Record, Voicemail). */
export const RECORDING_ENDPOINT_TYPES = ['conference', 'flexml', 'voicemail'] as const;

/** Query of `POST /media/recordings` (all values arrive as strings). */
export const RecordingQuerySchema = Type.Object(
  {
    endpoint_sid: Type.String({ minLength: 1, maxLength: 64 }),
    /** The FlexML Record verb's `containerSid` (FlexML only). */
    container_sid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    call_sid: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '^[A-Za-z0-9._:-]+$',
        patternMessage: 'letters, digits and . _ : - only',
      }),
    ),
  },
  { additionalProperties: true, $id: 'RecordingQuery' },
);
export type RecordingQuery = Static<typeof RecordingQuerySchema>;

/** Query of `GET /media/playback`: the endpoint, and the file by `file_sid` or by `uri` (a publish_uri). */
export const PlaybackQuerySchema = Type.Object(
  {
    endpoint_sid: Type.String({ minLength: 1, maxLength: 64 }),
    file_sid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    uri: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  },
  { additionalProperties: true, $id: 'PlaybackQuery' },
);
export type PlaybackQuery = Static<typeof PlaybackQuerySchema>;

const PrincipalSchema = Type.Object({
  partner_sid: Type.String(),
  login: Type.String(),
  scopes: Type.Array(Type.String()),
  token_sid: Type.Union([Type.String(), Type.Null()]),
});

/** gateway → storage (`recordingPrepare`): a recording is about to stream in. */
export const RecordingPrepareRequestSchema = Type.Object(
  {
    principal: PrincipalSchema,
    query: Type.Record(Type.String(), Type.Unknown()),
    /** The request's Idempotency-Key, as for an upload's prepare (messages/storage.ts). */
    idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  },
  { additionalProperties: false, $id: 'RecordingPrepareRequest' },
);
export type RecordingPrepareRequest = Static<typeof RecordingPrepareRequestSchema>;

/** gateway → storage (`playbackOpen`). */
export const PlaybackOpenRequestSchema = Type.Object(
  {
    principal: PrincipalSchema,
    query: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false, $id: 'PlaybackOpenRequest' },
);
export type PlaybackOpenRequest = Static<typeof PlaybackOpenRequestSchema>;

/** storage → gateway: what to stream for a playback (never touches date_last_accessed). */
export const PlaybackOpenReplySchema = Type.Object(
  {
    file_sid: Type.String(),
    blob_key: Type.String(),
    file_bytes: Type.Integer({ minimum: 0 }),
    mime_type: Type.String(),
    name: Type.String(),
    /** When the bytes last changed (Last-Modified, If-Range). */
    date_modified: Type.String(),
  },
  { additionalProperties: false, $id: 'PlaybackOpenReply' },
);
export type PlaybackOpenReply = Static<typeof PlaybackOpenReplySchema>;

/** storage → endpoint (`lookup`) request, and the endpoint as the media plane's rules need it. */
export const EndpointLookupRequestSchema = Type.Object(
  { endpoint_sid: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false, $id: 'EndpointLookupRequest' },
);
export const EndpointLookupReplySchema = Type.Object(
  {
    endpoint_sid: Type.String(),
    partner_sid: Type.String(),
    type: Type.Union(ENDPOINT_TYPES.map((t) => Type.Literal(t))),
    container_sid: Type.Union([Type.String(), Type.Null()]),
    conference_endpoint_sid: Type.Union([Type.String(), Type.Null()]),
    callback_url: Type.Union([Type.String(), Type.Null()]),
    /** A Voicemail endpoint's longest recording in seconds (`properties.max_duration`); null or 0: no limit. */
    max_duration: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  },
  { additionalProperties: false, $id: 'EndpointLookupReply' },
);
export type EndpointLookupReply = Static<typeof EndpointLookupReplySchema>;

/** endpoint → storage (`publishedCheck`): is `uri` the publish_uri of a published file of the partner? */
export const PublishedCheckRequestSchema = Type.Object(
  {
    partner_sid: Type.String({ minLength: 1 }),
    uri: Type.String({ minLength: 1, maxLength: 2048 }),
  },
  { additionalProperties: false, $id: 'PublishedCheckRequest' },
);
export type PublishedCheckRequest = Static<typeof PublishedCheckRequestSchema>;

/** storage → endpoint (`callbackSchedule`): a recording was stored for a Voicemail endpoint. */
export const VoicemailCallbackScheduleSchema = Type.Object(
  {
    endpoint_sid: SecureIdSchema,
    partner_sid: SecureIdSchema,
    file_sid: SecureIdSchema,
    container_sid: SecureIdSchema,
    publish_uri: Type.Union([Type.String(), Type.Null()]),
    content_duration: Type.Union([Type.Number(), Type.Null()]),
    file_bytes: Type.Integer({ minimum: 0 }),
    call_sid: Type.Union([Type.String(), Type.Null()]),
    date_created: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, $id: 'VoicemailCallbackSchedule' },
);
export type VoicemailCallbackSchedule = Static<typeof VoicemailCallbackScheduleSchema>;

const NullableTimestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/**
 * A Voicemail callback delivery as `GET /media/callbacks` lists it (what was sent, and how it
 * went). `state`: `pending` (being tried), `delivered` (a 2xx came back), `failed` (gave up, or
 * refused: a private address).
 */
export const VoicemailCallbackDeliverySchema = Type.Object(
  {
    attempts: Type.Integer({ minimum: 0 }),
    callback_method: Type.Union(CALLBACK_METHODS.map((m) => Type.Literal(m))),
    callback_url: Type.String(),
    date_created: Type.String({ format: 'date-time' }),
    date_delivered: NullableTimestamp,
    date_next_attempt: NullableTimestamp,
    endpoint_sid: Type.String(),
    file_sid: Type.String(),
    last_error: Type.Union([Type.String(), Type.Null()]),
    partner_sid: Type.String(),
    state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  },
  { additionalProperties: false, $id: 'VoicemailCallbackDelivery' },
);
export type VoicemailCallbackDelivery = Static<typeof VoicemailCallbackDeliverySchema>;
