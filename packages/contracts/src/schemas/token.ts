import { Type, type Static } from '@sinclair/typebox';
import { ScopeSchema } from './scopes';
import { PartnerSchema } from './partner';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** A token as returned. `access_token` holds the secret only in the response that created it. */
export const TokenSchema = Type.Object(
  {
    access_token: Type.Union([Type.String(), Type.Null()]),
    date_created: Timestamp,
    date_expiration_access_token: NullableTimestamp,
    date_last_accessed: NullableTimestamp,
    name: Type.Union([Type.String(), Type.Null()]),
    partner: Type.Optional(PartnerSchema),
    partner_sid: Type.String({ format: 'uuid' }),
    scopes: Type.Array(ScopeSchema),
    token_sid: Type.String({ format: 'uuid' }),
    token_type: Type.Literal('bearer'),
  },
  { additionalProperties: false, $id: 'Token' },
);
export type Token = Static<typeof TokenSchema>;

/** `POST /oauth/token` form fields (password grant). */
export const TokenRequestSchema = Type.Object(
  {
    access_token_expires_in: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 * 365 * 86400 })),
    grant_type: Type.Literal('password'),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    password: Type.String({ minLength: 1 }),
    scope: Type.Optional(
      Type.String({
        maxLength: 4096,
        description:
          'OAuth 2.0 (RFC 6749 §3.3): the scopes to issue, space-delimited; each ' +
          'must be held by the partner, else 400 with message `invalid_scope`. ' +
          'Instead of `scopes`.',
      }),
    ),
    scopes: Type.Optional(Type.Array(ScopeSchema, { uniqueItems: true })),
    username: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false, $id: 'TokenRequest' },
);
export type TokenRequest = Static<typeof TokenRequestSchema>;

export const TokenUpdateSchema = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    scopes: Type.Optional(Type.Array(ScopeSchema, { uniqueItems: true })),
  },
  { additionalProperties: false, $id: 'TokenUpdate' },
);
export type TokenUpdate = Static<typeof TokenUpdateSchema>;

/**
 * `POST /oauth/revoke` (a form): the token to revoke, the calling one when omitted. RFC 7009's
 * `token_type_hint` is accepted and not needed (there is one kind of token). Any other field is a
 * 400 naming it, and an empty `token` a 400 naming `token`: either used to revoke the caller's own
 * token instead (decisions §51).
 */
export const TokenRevokeSchema = Type.Object(
  {
    token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'The access token to revoke; the calling one when omitted.',
      }),
    ),
    token_type_hint: Type.Optional(Type.String({ maxLength: 64, description: 'RFC 7009; accepted and not needed.' })),
  },
  { additionalProperties: false, $id: 'TokenRevoke' },
);
export type TokenRevoke = Static<typeof TokenRevokeSchema>;
