import { Subjects as S } from '@patchbay/contracts';
import type { RouteDef } from './route-def';

/** Tokens, whoami and partners (reference-facts "Authentication, partners, scopes"). */
export const IDENTITY_ROUTES: RouteDef[] = [
  { method: 'post', path: '/oauth/token', subject: S.identity.tokenIssue, scopes: [], body: 'form', auth: false },
  { method: 'get', path: '/oauth/whoami', subject: S.identity.partnerGet, scopes: [], callerParam: 'partner_sid' },
  { method: 'get', path: '/oauth/tokens', subject: S.identity.tokenList, scopes: ['oauth.manage', 'oauth.read'] },
  { method: 'get', path: '/oauth/tokens/:token_sid', subject: S.identity.tokenGet, scopes: ['oauth.manage', 'oauth.read'] },
  { method: 'patch', path: '/oauth/tokens/:token_sid', subject: S.identity.tokenUpdate, scopes: ['oauth.manage'], purgesCredentials: true },
  { method: 'post', path: '/oauth/revoke', subject: S.identity.tokenRevoke, scopes: [], body: 'form', purgesCredentials: true },
  // Partners.
  { method: 'post', path: '/partners', subject: S.identity.partnerCreate, scopes: ['partners.manage'] },
  { method: 'get', path: '/partners', subject: S.identity.partnerList, scopes: ['partners.manage', 'partners.read'] },
  { method: 'get', path: '/partners/:partner_sid', subject: S.identity.partnerGet, scopes: ['partners.manage', 'partners.read'] },
  { method: 'patch', path: '/partners/:partner_sid', subject: S.identity.partnerUpdate, scopes: ['partners.manage'], purgesCredentials: true },
];
