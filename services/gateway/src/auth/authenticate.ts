import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { IdentityClient, UnauthorizedError, ForbiddenError } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';
import { CredentialCache } from './credential-cache';
import { callerOf, setCaller } from './caller';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Parses `Authorization`: Bearer token or HTTP Basic login:password. */
function parseAuthorization(
  header: string | undefined,
): { kind: 'bearer'; token: string } | { kind: 'basic'; login: string; password: string } | undefined {
  if (!header) return undefined;
  const [scheme, ...rest] = header.trim().split(/\s+/);
  const value = rest.join(' ');
  if (/^bearer$/i.test(scheme) && value) return { kind: 'bearer', token: value };
  if (/^basic$/i.test(scheme) && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) return { kind: 'basic', login: decoded.slice(0, i), password: decoded.slice(i + 1) };
  }
  throw new UnauthorizedError({ code: 'bad_credentials' });
}

/**
 * Establishes the caller (`callerOf(res)`, auth/caller.ts) from a Bearer token or HTTP Basic
 * credentials, asking the identity service (with a short cache). No credentials → 401
 * "Unauthorized"; wrong or revoked → 401 "Bad credentials".
 */
export function authenticate(bus: Bus, cache: CredentialCache, timeoutMs: number): RequestHandler {
  const identity = new IdentityClient(bus, { timeoutMs });
  return async (req, res, next) => {
    const creds = parseAuthorization(req.headers.authorization);
    if (!creds) throw new UnauthorizedError();
    const key = creds.kind === 'bearer' ? `b:${sha(creds.token)}` : `u:${sha(`${creds.login}\u0000${creds.password}`)}`;
    let principal = cache.get(key);
    if (!principal) {
      const requestId = String(req.headers['x-request-id'] ?? '');
      const checked =
        creds.kind === 'bearer'
          ? await identity.authenticateToken(creds.token, { requestId })
          : await identity.authenticateBasic(
              { login: creds.login, password: creds.password, client_ip: req.ip },
              { requestId },
            );
      principal = checked.principal;
      cache.set(key, principal, checked.expires_at ? Date.parse(checked.expires_at) : undefined);
    }
    setCaller(res, principal);
    next();
  };
}

/** Requires any one of `scopes` (none listed = any authenticated caller). 403 "Forbidden" otherwise. */
export function requireScopes(scopes: readonly string[]): RequestHandler {
  return (_req, res, next) => {
    const principal = callerOf(res);
    if (scopes.length > 0 && !scopes.some((s) => principal.scopes.some((own) => own === s))) throw new ForbiddenError();
    next();
  };
}
