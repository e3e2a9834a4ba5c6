import {
  BadRequestError,
  TokenRequestSchema,
  UnauthorizedError,
  compileValidator,
  type Authenticated,
  type Principal,
  type Scope,
} from '@patchbay/contracts';
import { effectiveScopes } from '../domain/scope-rules';
import { requestedScope } from '../domain/requested-scope';
import { hashToken, verifyPasswordOrDecoy } from '../domain/secrets';
import type { PartnerDoc } from '../domain/documents';
import type { IdentityContext } from '../context';
import { issueToken } from './tokens';

const validateTokenRequest = compileValidator(TokenRequestSchema);

/** Bumping `date_last_accessed` on every call would be a write per request; once a minute is enough. */
const LAST_ACCESS_RESOLUTION_MS = 60_000;

const principalFor = (p: PartnerDoc, scopes: Scope[], tokenSid: string | null): Principal => ({
  partner_sid: p.partner_sid,
  login: p.login,
  scopes,
  token_sid: tokenSid,
});

/** The client address the gateway saw, if it sent a usable one. */
const addressOf = (ip: string | undefined): string | null => (ip && ip.length <= 64 ? ip : null);

/** The active partner whose login and password these are, or null (unknown login, wrong password, suspended). */
async function checkPassword(ctx: IdentityContext, login: string, password: string): Promise<PartnerDoc | null> {
  const p = await ctx.repo.partners.findOne({ login });
  const ok = await verifyPasswordOrDecoy(password, p?.password_hash ?? null);
  return ok && p && p.status === 'active' ? p : null;
}

/**
 * Authentication by a bearer token: checked by its hash, refused from its expiry, which the answer carries so a
 * gateway never caches it longer.
 */
export async function authenticateToken(ctx: IdentityContext, { token }: { token: string }): Promise<Authenticated> {
  const { repo } = ctx;
  const t = await repo.tokens.findOne({ token_hash: hashToken(token) });
  if (!t || (t.date_expiration_access_token && new Date(t.date_expiration_access_token) <= new Date()))
    throw new UnauthorizedError({ code: 'bad_credentials' });
  const p = await repo.partners.findOne({ partner_sid: t.partner_sid });
  if (!p || p.status !== 'active') throw new UnauthorizedError({ code: 'bad_credentials' });
  if (!t.date_last_accessed || Date.now() - new Date(t.date_last_accessed).getTime() > LAST_ACCESS_RESOLUTION_MS) {
    await repo.tokens.updateOne({ token_sid: t.token_sid }, { $set: { date_last_accessed: new Date() } });
  }
  const expiresAt = t.date_expiration_access_token ? new Date(t.date_expiration_access_token).toISOString() : null;
  return {
    principal: principalFor(p, effectiveScopes(t.scopes, p.available_scopes), t.token_sid),
    expires_at: expiresAt,
  };
}

/** Authentication by HTTP Basic, behind the login throttle. */
export async function authenticateBasic(
  ctx: IdentityContext,
  {
    login,
    password,
    client_ip: ip,
  }: {
    login: string;
    password: string;
    client_ip?: string;
  },
): Promise<Authenticated> {
  const { throttle } = ctx;
  const p = await throttle.guard({ login, address: addressOf(ip) }, () => checkPassword(ctx, login, password));
  return { principal: principalFor(p, p.available_scopes, null) };
}

/** The password grant of `/oauth/token`, behind the login throttle: a new token of the requested scopes. */
export async function issueTokenForPassword(
  ctx: IdentityContext,
  { form, client_ip: ip }: { form?: unknown; client_ip?: string },
) {
  const { throttle } = ctx;
  const input = validateTokenRequest(form ?? {});
  const p = await throttle.guard({ login: input.username, address: addressOf(ip) }, () =>
    checkPassword(ctx, input.username, input.password),
  );
  if (input.scope !== undefined && input.scopes !== undefined)
    throw BadRequestError.field('scope', 'send scope (OAuth, space-delimited) or scopes, not both');
  const scopes = input.scope !== undefined ? requestedScope(input.scope, p.available_scopes) : input.scopes;
  return issueToken(ctx, p, { scopes, name: input.name, expiresIn: input.access_token_expires_in });
}
