import { ALL_SCOPES, BadRequestError, errorItem, type Scope } from '@patchbay/contracts';

/**
 * The OAuth `scope` parameter of a token request (RFC 6749 §3.3: space-delimited, order and
 * repeats do not matter) as the scopes to issue. A name that is not a scope, or one the partner
 * does not hold, is a 400 `invalid_scope` (RFC 6749 §5.2) naming `scope`, in Patchbay's error body.
 */
export function requestedScope(scope: string, held: readonly Scope[]): Scope[] {
  const names = [...new Set(scope.split(/[ \t]+/).filter((s) => s !== ''))];
  const unknown = names.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  const known = names.filter((s): s is Scope => (ALL_SCOPES as readonly string[]).includes(s));
  const lacking = known.filter((s) => !held.includes(s));
  const errors = [
    ...(unknown.length > 0 ? [errorItem(`not a scope: ${unknown.join(', ')}`, 'scope')] : []),
    ...(lacking.length > 0 ? [errorItem(`the partner does not hold: ${lacking.join(', ')}`, 'scope')] : []),
    ...(names.length === 0 ? [errorItem('scope names no scope', 'scope')] : []),
  ];
  if (errors.length > 0) throw new BadRequestError({ message: 'invalid_scope', errors });
  return known;
}
