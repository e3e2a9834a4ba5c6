import {
  ListEnvelopeSchema,
  PartnerCreateSchema,
  PartnerSchema,
  PartnerUpdateSchema,
  Subjects,
  TokenRequestSchema,
  TokenRevokeSchema,
  TokenSchema,
  TokenUpdateSchema,
} from '@patchbay/contracts';
import type { RouteDef } from '../http/route-def';
import { WITH_RELATED } from './route-params';

/** Tokens, whoami and partners (docs/interface-notes.md, Authentication, partners and scopes). */
export const IDENTITY_ROUTES: RouteDef[] = [
  {
    method: 'post',
    path: '/oauth/token',
    subject: Subjects.identity.tokenIssue,
    scopes: [],
    body: 'form',
    auth: false,
    passwordGrant: true,
    doc: {
      summary: 'Get an access token (password grant)',
      description:
        'Form fields `grant_type=password`, `username`, `password`; optional ' +
        '`scope` (space-delimited, RFC 6749: a scope the partner lacks is a ' +
        '400 `invalid_scope`). The secret (`access_token`) is shown once, in ' +
        'this answer. Repeated failures for one login or client address are ' +
        'throttled: 429 with `Retry-After`.',
      request: TokenRequestSchema,
      responses: { 200: TokenSchema },
      errors: [400, 401, 422, 429],
    },
  },
  {
    method: 'get',
    path: '/oauth/whoami',
    subject: Subjects.identity.partnerGet,
    scopes: [],
    callerParam: 'partner_sid',
    doc: { summary: 'The partner the credentials belong to', fields: true, responses: { 200: PartnerSchema } },
  },
  {
    method: 'get',
    path: '/oauth/tokens',
    subject: Subjects.identity.tokenList,
    scopes: ['oauth.manage', 'oauth.read'],
    doc: { summary: 'List tokens', list: 'offset', responses: { 200: ListEnvelopeSchema(TokenSchema) } },
  },
  {
    method: 'get',
    path: '/oauth/tokens/:token_sid',
    subject: Subjects.identity.tokenGet,
    scopes: ['oauth.manage', 'oauth.read'],
    doc: { summary: 'Get a token', fields: true, query: WITH_RELATED, responses: { 200: TokenSchema } },
  },
  {
    method: 'patch',
    path: '/oauth/tokens/:token_sid',
    subject: Subjects.identity.tokenUpdate,
    scopes: ['oauth.manage'],
    purgesCredentials: true,
    doc: {
      summary: 'Rename a token or narrow its scopes',
      request: TokenUpdateSchema,
      responses: { 200: TokenSchema },
    },
  },
  {
    method: 'post',
    path: '/oauth/revoke',
    subject: Subjects.identity.tokenRevoke,
    scopes: [],
    body: 'form',
    purgesCredentials: true,
    doc: { summary: 'Revoke a token', request: TokenRevokeSchema, responses: { 204: null } },
  },
  // Partners.
  {
    method: 'post',
    path: '/partners',
    subject: Subjects.identity.partnerCreate,
    scopes: ['partners.manage'],
    doc: {
      summary: 'Create a partner',
      description: 'Also creates its System Gateway endpoint and its default container.',
      request: PartnerCreateSchema,
      responses: { 200: PartnerSchema },
    },
  },
  {
    method: 'get',
    path: '/partners',
    subject: Subjects.identity.partnerList,
    scopes: ['partners.manage', 'partners.read'],
    doc: { summary: 'List partners', list: 'offset', responses: { 200: ListEnvelopeSchema(PartnerSchema) } },
  },
  {
    method: 'get',
    path: '/partners/:partner_sid',
    subject: Subjects.identity.partnerGet,
    scopes: ['partners.manage', 'partners.read'],
    doc: { summary: 'Get a partner', fields: true, responses: { 200: PartnerSchema } },
  },
  {
    method: 'patch',
    path: '/partners/:partner_sid',
    subject: Subjects.identity.partnerUpdate,
    scopes: ['partners.manage'],
    purgesCredentials: true,
    doc: { summary: 'Update a partner', request: PartnerUpdateSchema, responses: { 200: PartnerSchema } },
  },
];
