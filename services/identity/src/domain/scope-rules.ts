import { ALL_SCOPES, OPERATOR_ONLY_SCOPES, UnprocessableError, type Scope } from '@patchbay/contracts';

/** Scopes a new partner gets when none are given: everything but partner administration and the operator's own. */
export const DEFAULT_PARTNER_SCOPES: Scope[] = ALL_SCOPES.filter(
  (s) => !s.startsWith('partners.') && !OPERATOR_ONLY_SCOPES.includes(s),
);

/**
 * What a partner may hand on, to a partner it creates or updates (`for: 'partner'`) or to a token
 * of its own (`for: 'token'`): only scopes it holds itself, and the operator-only scopes
 * (`media.manage`) never to another partner.
 */
export function checkGrantable(
  requested: Scope[],
  granter: Scope[],
  field: string,
  to: 'partner' | 'token' = 'token',
): void {
  const reserved = to === 'partner' ? requested.filter((s) => OPERATOR_ONLY_SCOPES.includes(s)) : [];
  if (reserved.length > 0)
    throw UnprocessableError.field(
      field,
      `${reserved.join(', ')} is held only by the operator partner and cannot be given to another partner`,
    );
  const missing = requested.filter((s) => !granter.includes(s));
  if (missing.length > 0)
    throw UnprocessableError.field(field, `partner does not have permissions to grant: ${missing.join(', ')}`);
}

/** A token's effective scopes: what it was given, cut down to what the partner holds now. */
export function effectiveScopes(tokenScopes: Scope[], partnerScopes: Scope[]): Scope[] {
  return tokenScopes.filter((s) => partnerScopes.includes(s));
}
