import { Type, type Static } from '@sinclair/typebox';
import { GatewayRequestSchema, PrincipalSchema } from '../gateway-request';
import { ListEnvelopeSchema } from '../schemas/envelope';
import { PartnerSchema } from '../schemas/partner';
import { TokenSchema } from '../schemas/token';
import { Subjects } from '../subjects';
import type { PayloadSpec, RequestSpec } from './message-spec';
import {
  IdempotencyBeginReplySchema,
  IdempotencyBeginRequestSchema,
  IdempotencyFinishRequestSchema,
  IdempotencyHeldReplySchema,
  IdempotencyReleaseRequestSchema,
  IdempotencyRenewRequestSchema,
} from './idempotency';

/**
 * The identity service's bus messages: what the gateway forwards (a GatewayRequest per API call),
 * the credential checks it asks for, the lookups other services make, and the events identity
 * publishes. Served by services/identity; asked through clients/identity-client.ts.
 */

/** The client address the gateway saw (for the login throttle); absent when unknown. */
const ClientIp = Type.Optional(Type.String());

export const AuthenticateTokenRequestSchema = Type.Object({ token: Type.String({ minLength: 1 }) });
export const AuthenticateBasicRequestSchema = Type.Object({
  login: Type.String({ minLength: 1 }),
  password: Type.String(),
  client_ip: ClientIp,
});
/** The password grant: the form as posted (identity checks it against TokenRequestSchema: a 400 names the field). */
export const TokenIssueRequestSchema = Type.Object({ form: Type.Optional(Type.Unknown()), client_ip: ClientIp });

/** Who the credentials belong to; `expires_at` (ISO 8601) bounds how long a gateway may cache a token's answer. */
export const AuthenticatedSchema = Type.Object({
  principal: PrincipalSchema,
  expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Authenticated = Static<typeof AuthenticatedSchema>;

export const PartnerLookupRequestSchema = Type.Object({ partner_sid: Type.String({ minLength: 1 }) });
/** Partner SIDs in order, a page at a time (start-up backfills). */
export const PartnerSidsRequestSchema = Type.Object({
  after: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
export type PartnerSidsRequest = Static<typeof PartnerSidsRequestSchema>;
export const PartnerSidsReplySchema = Type.Object({ partner_sids: Type.Array(Type.String()) });
export type PartnerSidsReply = Static<typeof PartnerSidsReplySchema>;

/** PATCHBAY_BOOTSTRAP_* as the launchers pass them: each fixed by the operator, or absent. */
export const BootstrapRequestSchema = Type.Object({
  login: Type.Optional(Type.String({ minLength: 1 })),
  password: Type.Optional(Type.String({ minLength: 1 })),
  token: Type.Optional(Type.String({ minLength: 1 })),
});
export type BootstrapRequest = Static<typeof BootstrapRequestSchema>;

/**
 * What the launcher prints. A secret is in it only when Patchbay generated it just now (the
 * operator who set one through the environment already has it, and logs are not the place to
 * repeat it); `*_from_env` says which ones the operator set.
 */
export const BootstrapReplySchema = Type.Object({
  created: Type.Boolean(),
  login: Type.String(),
  partner: PartnerSchema,
  password: Type.Union([Type.String(), Type.Null()]),
  access_token: Type.Union([Type.String(), Type.Null()]),
  password_from_env: Type.Boolean(),
  token_from_env: Type.Boolean(),
});
export type BootstrapReply = Static<typeof BootstrapReplySchema>;

const NoBody = Type.Null();

export const IdentityRequests = {
  [Subjects.identity.authenticateToken]: { request: AuthenticateTokenRequestSchema, reply: AuthenticatedSchema },
  [Subjects.identity.authenticateBasic]: { request: AuthenticateBasicRequestSchema, reply: AuthenticatedSchema },
  [Subjects.identity.tokenIssue]: { request: TokenIssueRequestSchema, reply: TokenSchema },
  [Subjects.identity.partnerCreate]: { request: GatewayRequestSchema, reply: PartnerSchema },
  [Subjects.identity.partnerGet]: { request: GatewayRequestSchema, reply: PartnerSchema },
  [Subjects.identity.partnerUpdate]: { request: GatewayRequestSchema, reply: PartnerSchema },
  [Subjects.identity.partnerList]: { request: GatewayRequestSchema, reply: ListEnvelopeSchema(PartnerSchema) },
  [Subjects.identity.partnerLookup]: { request: PartnerLookupRequestSchema, reply: PartnerSchema },
  [Subjects.identity.partnerSids]: { request: PartnerSidsRequestSchema, reply: PartnerSidsReplySchema },
  [Subjects.identity.tokenList]: { request: GatewayRequestSchema, reply: ListEnvelopeSchema(TokenSchema) },
  [Subjects.identity.tokenGet]: { request: GatewayRequestSchema, reply: TokenSchema },
  [Subjects.identity.tokenUpdate]: { request: GatewayRequestSchema, reply: TokenSchema },
  [Subjects.identity.tokenRevoke]: { request: GatewayRequestSchema, reply: NoBody },
  [Subjects.identity.bootstrap]: { request: BootstrapRequestSchema, reply: BootstrapReplySchema },
  [Subjects.identity.ready]: {
    request: Type.Object({}, { additionalProperties: false }),
    reply: Type.Object({ ready: Type.Boolean() }),
  },
  [Subjects.identity.idempotencyBegin]: { request: IdempotencyBeginRequestSchema, reply: IdempotencyBeginReplySchema },
  [Subjects.identity.idempotencyFinish]: { request: IdempotencyFinishRequestSchema, reply: IdempotencyHeldReplySchema },
  [Subjects.identity.idempotencyRelease]: {
    request: IdempotencyReleaseRequestSchema,
    reply: IdempotencyHeldReplySchema,
  },
  [Subjects.identity.idempotencyRenew]: { request: IdempotencyRenewRequestSchema, reply: IdempotencyHeldReplySchema },
} as const satisfies Record<(typeof Subjects.identity)[keyof typeof Subjects.identity], RequestSpec>;

/**
 * `evt.partner.created` / `evt.partner.updated`: the partner as the API shows it (PartnerSchema).
 * Consumers rely on its `partner_sid` alone, and durable events outlive versions, so that is all
 * that is checked: a field added to partners later never makes an older consumer drop the event.
 */
export const PartnerEventSchema = Type.Object({
  partner: Type.Object({ partner_sid: Type.String({ minLength: 1 }) }, { additionalProperties: true }),
});
export type PartnerEvent = Static<typeof PartnerEventSchema>;
/** `evt.token.revoked`: a token revoked or changed (gateways forget what they cached for it). */
export const TokenRevokedEventSchema = Type.Object({ token_sid: Type.String({ minLength: 1 }) });
export type TokenRevokedEvent = Static<typeof TokenRevokedEventSchema>;

export const IdentityEvents = {
  [Subjects.events.partnerCreated]: { payload: PartnerEventSchema },
  [Subjects.events.partnerUpdated]: { payload: PartnerEventSchema },
  [Subjects.events.tokenRevoked]: { payload: TokenRevokedEventSchema },
} as const satisfies Record<string, PayloadSpec>;
