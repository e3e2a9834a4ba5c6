import { isDeepStrictEqual } from 'node:util';
import { errorItem, type EndpointPropertiesInput, type ErrorItem } from '@patchbay/contracts';
import { addressViolations } from './addresses';
import { changeableAfterCreation, isHosted } from './endpoint-types';
import { inapplicableProperties, type EndpointState } from './endpoint-state';

/** The scope that lets a partner set `auth_required` (docs/interface-notes.md, Authentication, partners and scopes). */
export const AUTH_REQUIRED_SCOPE = 'endpoints.manage_auth_required';
/** The exact error item of docs/interface-notes.md, Status codes and errors, for `auth_required` without its scope. */
export const AUTH_REQUIRED_DENIED = (): ErrorItem =>
  errorItem('partner does not have permissions to set this value', 'auth_required');

/**
 * Object rules of a new endpoint (each broken rule is one 422 item, naming its field):
 * `system_gateway` is never created through the API; writable properties must apply to the type;
 * hosted types have no addresses; `third_party` needs an address; address rules; and `auth_required`
 * other than its default (true) needs the scope.
 */
export function createViolations(
  next: EndpointState,
  givenProperties: EndpointPropertiesInput | undefined,
  scopes: readonly string[],
): ErrorItem[] {
  if (next.type === 'system_gateway')
    return [
      errorItem(
        'system_gateway endpoints are created with their partner and cannot be created through the API',
        'type',
      ),
    ];
  const out: ErrorItem[] = [];
  if (!next.auth_required && !scopes.includes(AUTH_REQUIRED_SCOPE)) out.push(AUTH_REQUIRED_DENIED());
  out.push(...inapplicable(next, givenProperties));
  if (isHosted(next.type) && next.addresses.length > 0)
    out.push(errorItem(`${next.type} endpoints are hosted applications and have no addresses`, 'addresses'));
  out.push(...thirdPartyViolations(next));
  out.push(...addressViolations(next.addresses));
  // Without its conference a playback endpoint could play nothing, for ever (decisions §41).
  if (next.type === 'conference_playback' && !next.properties.conference_endpoint_sid)
    out.push(
      errorItem('a conference_playback endpoint needs its conference endpoint', 'properties.conference_endpoint_sid'),
    );
  return out;
}

/**
 * Object rules of an update from `current` to `next`: a System Gateway never changes; each field
 * that changed must be changeable for the type after creation (Rule 2); a changed `auth_required`
 * needs the scope; writable properties must apply; `third_party` keeps an address; address rules.
 */
export function updateViolations(
  current: EndpointState,
  next: EndpointState,
  givenProperties: EndpointPropertiesInput | undefined,
  scopes: readonly string[],
): ErrorItem[] {
  if (current.type === 'system_gateway')
    return [errorItem('the System Gateway endpoint cannot be changed through the API', 'type')];
  const out: ErrorItem[] = [];
  for (const path of changedPaths(current, next)) {
    if (!changeableAfterCreation(current.type, path)) {
      out.push(
        errorItem(
          path === 'type'
            ? 'type cannot be changed after creation'
            : `cannot be changed after creation of a ${current.type} endpoint`,
          path,
        ),
      );
    } else if (path === 'auth_required' && !scopes.includes(AUTH_REQUIRED_SCOPE)) {
      out.unshift(AUTH_REQUIRED_DENIED());
    }
  }
  out.push(...inapplicable(current, givenProperties));
  if (next.type === current.type) out.push(...thirdPartyViolations(next));
  if (!isDeepStrictEqual(current.addresses, next.addresses)) out.push(...addressViolations(next.addresses));
  return out;
}

/**
 * The fields that differ between two states, as the paths an error names: top-level fields,
 * `attributes.<key>` and `properties.<key>` one by one, arrays (`addresses`, `transformations`) whole.
 */
export function changedPaths(a: EndpointState, b: EndpointState): string[] {
  const out: string[] = [];
  // why the cast: Object.keys says string[]; `a` is an EndpointState, whose keys these are.
  for (const key of Object.keys(a) as Array<keyof EndpointState>) {
    if (key === 'attributes' || key === 'properties') {
      const x: Record<string, unknown> = a[key];
      const y: Record<string, unknown> = b[key];
      for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
        if (!isDeepStrictEqual(x[k], y[k])) out.push(`${key}.${k}`);
      }
    } else if (!isDeepStrictEqual(a[key], b[key])) {
      out.push(key);
    }
  }
  return out;
}

function inapplicable(state: EndpointState, given: EndpointPropertiesInput | undefined): ErrorItem[] {
  return inapplicableProperties(state.type, given).map((k) =>
    errorItem(`${state.type} endpoints have no ${k} property`, `properties.${k}`),
  );
}

function thirdPartyViolations(next: EndpointState): ErrorItem[] {
  if (next.type !== 'third_party' || next.addresses.length > 0) return [];
  return [errorItem('a third_party endpoint needs at least one address with ip', 'addresses')];
}
