import { Type, type Static } from '@sinclair/typebox';

export const MAX_PUSH_RECIPIENTS = 100;
export const PUSH_PRIORITIES = ['normal', 'high'] as const;

/** Why a recipient was not delivered to (docs/interface-notes.md, Push; Patchbay's reasons). */
export const PUSH_FAILURE_REASONS = [
  'not_found',
  'unregistered',
  'invalid_token',
  'no_credentials',
  'provider_error',
] as const;
export type PushFailureReason = (typeof PUSH_FAILURE_REASONS)[number];
export type PushResult = 'success' | PushFailureReason;

/** An optional field that also accepts `null` (the same as leaving it out). */
const Opt = <
  T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Boolean>,
>(
  t: T,
) => Type.Optional(Type.Union([t, Type.Null()]));

/**
 * POST /push/notifications. Only `recipients` is required; with nothing else the devices get an
 * empty message, which still counts as a success. `ttl` is in seconds (28 days at most, the
 * longest FCM and APNs keep a message).
 */
export const PushNotificationSchema = Type.Object(
  {
    android_click_action: Opt(Type.String({ maxLength: 1024 })),
    android_icon: Opt(Type.String({ maxLength: 1024 })),
    android_sound: Opt(Type.String({ maxLength: 1024 })),
    android_tag: Opt(Type.String({ maxLength: 1024 })),
    body: Opt(Type.String({ maxLength: 4096 })),
    collapse_key: Opt(Type.String({ maxLength: 256 })),
    data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
    ios_badge: Opt(Type.Integer({ minimum: 0 })),
    ios_category: Opt(Type.String({ maxLength: 256 })),
    ios_collapse_id: Opt(Type.String({ maxLength: 64 })),
    ios_content_available: Opt(Type.Boolean()),
    ios_mutable_content: Opt(Type.Boolean()),
    ios_sound: Opt(Type.String({ maxLength: 256 })),
    priority: Type.Optional(Type.Union([...PUSH_PRIORITIES.map((p) => Type.Literal(p)), Type.Null()])),
    recipients: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: MAX_PUSH_RECIPIENTS,
    }),
    title: Opt(Type.String({ maxLength: 1024 })),
    ttl: Opt(Type.Integer({ minimum: 0, maximum: 2419200 })),
  },
  { additionalProperties: false, $id: 'PushNotification' },
);
export type PushNotification = Static<typeof PushNotificationSchema>;

/** The send response: a result for every recipient, and the counts. */
export const PushSendResultSchema = Type.Object(
  {
    failure: Type.Integer({ minimum: 0 }),
    results: Type.Record(
      Type.String(),
      Type.Union([Type.Literal('success'), ...PUSH_FAILURE_REASONS.map((r) => Type.Literal(r))]),
    ),
    success: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, $id: 'PushSendResult' },
);
export type PushSendResult = Static<typeof PushSendResultSchema>;
