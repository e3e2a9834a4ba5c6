import { ALL_SCOPES, UnprocessableError, type Scope } from '@patchbay/contracts';

/** Scopes a new partner gets when none are given: everything but partner administration. */
export const DEFAULT_PARTNER_SCOPES: Scope[] = ALL_SCOPES.filter((s) => !s.startsWith('partners.'));

/** A partner can hand out only scopes it holds itself. */
export function checkGrantable(requested: Scope[], granter: Scope[], field: string): void {
  const missing = requested.filter((s) => !granter.includes(s));
  if (missing.length > 0) throw UnprocessableError.field(field, `partner does not have permissions to grant: ${missing.join(', ')}`);
}

/** A token's effective scopes: what it was given, cut down to what the partner holds now. */
export function effectiveScopes(tokenScopes: Scope[], partnerScopes: Scope[]): Scope[] {
  return tokenScopes.filter((s) => partnerScopes.includes(s));
}
