import { Type, type Static } from '@sinclair/typebox';
import { PartnerSchema } from './partner';

const NullableString = (opts: { maxLength?: number; minLength?: number } = {}) =>
  Type.Union([Type.String(opts), Type.Null()]);
const Ignored = () => Type.Optional(Type.Unknown());

/** What write-only credentials are returned as when they are set (docs/interface-notes.md, Push). */
export const CREDENTIAL_MASK = '********';

/**
 * A push application as returned. Credentials (`google_credentials`, `apns_p12`,
 * `apns_p12_password`, `apns_p8`) are write-only: `"********"` when set, `null` when not.
 * Fields of a platform the application does not use are `null`.
 */
export const PushApplicationSchema = Type.Object(
  {
    apns_id: NullableString(),
    apns_key_id: NullableString(),
    apns_p12: NullableString(),
    apns_p12_expiration: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    apns_p12_password: NullableString(),
    apns_p8: NullableString(),
    apns_team_id: NullableString(),
    apns_topic: NullableString(),
    application_sid: Type.String({ format: 'uuid' }),
    google_credentials: NullableString(),
    name: Type.String(),
    partner: Type.Optional(PartnerSchema),
    partner_sid: Type.String({ format: 'uuid' }),
  },
  { additionalProperties: false, $id: 'PushApplication' },
);
export type PushApplication = Static<typeof PushApplicationSchema>;

/**
 * POST /push/applications, PATCH and PUT: every field optional (PUT resets what it omits).
 * Credentials are strings (Base64 for `google_credentials` and `apns_p12`; PEM text or its Base64
 * for `apns_p8`); `null` clears a field; the mask `"********"` sent back unchanged keeps the
 * stored value. Read-only fields a client sends back are ignored, not errors.
 */
export const PushApplicationWriteSchema = Type.Object(
  {
    apns_id: Type.Optional(NullableString({ maxLength: 256 })),
    apns_key_id: Type.Optional(NullableString({ maxLength: 64 })),
    apns_p12: Type.Optional(NullableString({ maxLength: 65536 })),
    apns_p12_expiration: Ignored(),
    apns_p12_password: Type.Optional(NullableString({ maxLength: 1024 })),
    apns_p8: Type.Optional(NullableString({ maxLength: 16384 })),
    apns_team_id: Type.Optional(NullableString({ maxLength: 64 })),
    apns_topic: Type.Optional(NullableString({ maxLength: 256 })),
    application_sid: Ignored(),
    google_credentials: Type.Optional(NullableString({ maxLength: 65536 })),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    partner: Ignored(),
    partner_sid: Ignored(),
  },
  { additionalProperties: false, $id: 'PushApplicationWrite' },
);
export type PushApplicationWrite = Static<typeof PushApplicationWriteSchema>;
