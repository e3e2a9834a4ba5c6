import { Type } from '@sinclair/typebox';

/** Every scope a partner may hold (docs/interface-notes.md, Authentication, partners and scopes). */
export const ALL_SCOPES = [
  'endpoints.manage',
  'endpoints.create',
  'endpoints.read',
  'endpoints.update',
  'endpoints.delete',
  'endpoints.manage_auth_required',
  'storage.manage',
  'storage.create',
  'storage.read',
  'storage.update',
  'storage.delete',
  'push.manage',
  'push.create',
  'push.read',
  'push.update',
  'push.delete',
  'countries.manage',
  'countries.read',
  'calls.manage',
  'calls.read',
  'calls.create',
  'sms.manage',
  'sms.read',
  'sms.create',
  'oauth.manage',
  'oauth.create',
  'oauth.read',
  'partners.manage',
  'partners.read',
  'media.manage',
] as const;
export type Scope = (typeof ALL_SCOPES)[number];

/**
 * Scopes only the operator partner (the bootstrap partner) holds: the media plane's routes act on
 * every partner's containers, so no partner it creates may be given them (422).
 */
export const OPERATOR_ONLY_SCOPES: readonly Scope[] = ['media.manage'];

export const ScopeSchema = Type.Union(ALL_SCOPES.map((s) => Type.Literal(s)));
