import {
  BadRequestError,
  Subjects,
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
import type { IdentityContext } from './context';
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

/**
 * Authentication: a bearer token (checked by its hash; refused from its expiry, which the answer
 * carries so a gateway never caches it longer), and the two password checks — HTTP Basic and the
 * password grant of `/oauth/token` — both behind the login throttle.
 */
export function authHandlers(ctx: IdentityContext) {
  const { repo, throttle } = ctx;

  /** The active partner whose login and password these are, or null (unknown login, wrong password, suspended). */
  async function checkPassword(login: string, password: string): Promise<PartnerDoc | null> {
    const p = await repo.partners.findOne({ login });
    const ok = await verifyPasswordOrDecoy(password, p?.password_hash ?? null);
    return ok && p && p.status === 'active' ? p : null;
  }

  return {
    [Subjects.identity.authenticateToken]: async ({ token }: { token: string }): Promise<Authenticated> => {
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
    },
    [Subjects.identity.authenticateBasic]: async ({
      login,
      password,
      client_ip: ip,
    }: {
      login: string;
      password: string;
      client_ip?: string;
    }): Promise<Authenticated> => {
      const p = await throttle.guard({ login, address: addressOf(ip) }, () => checkPassword(login, password));
      return { principal: principalFor(p, p.available_scopes, null) };
    },
    [Subjects.identity.tokenIssue]: async ({ form, client_ip: ip }: { form?: unknown; client_ip?: string }) => {
      const input = validateTokenRequest(form ?? {});
      const p = await throttle.guard({ login: input.username, address: addressOf(ip) }, () =>
        checkPassword(input.username, input.password),
      );
      if (input.scope !== undefined && input.scopes !== undefined)
        throw BadRequestError.field('scope', 'send scope (OAuth, space-delimited) or scopes, not both');
      const scopes = input.scope !== undefined ? requestedScope(input.scope, p.available_scopes) : input.scopes;
      return issueToken(ctx, p, { scopes, name: input.name, expiresIn: input.access_token_expires_in });
    },
  };
}
