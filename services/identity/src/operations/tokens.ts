import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  Subjects,
  TokenRevokeSchema,
  TokenUpdateSchema,
  UnauthorizedError,
  compileValidator,
  parseWithRelated,
  type GatewayRequest,
  type Scope,
} from '@patchbay/contracts';
import { reply } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import { checkGrantable } from '../domain/scope-rules';
import { hashToken, newTokenSecret } from '../domain/secrets';
import { TOKEN_LIST_SPEC } from '../domain/list-specs';
import type { PartnerDoc, TokenDoc } from '../domain/documents';
import { serializeToken } from '../domain/serialize';
import type { IdentityContext } from '../context';

const validateUpdate = compileValidator(TokenUpdateSchema);
const validateRevoke = compileValidator(TokenRevokeSchema);

export interface TokenOptions {
  scopes?: Scope[];
  name?: string | null;
  expiresIn?: number;
  secret?: string;
}

/** Issues a token for `p`; its secret is in the answer once and stored only hashed. */
export async function issueToken(ctx: IdentityContext, p: PartnerDoc, opts: TokenOptions) {
  if (opts.scopes) checkGrantable(opts.scopes, p.available_scopes, 'scopes');
  const secret = opts.secret ?? newTokenSecret();
  const now = new Date();
  const doc: TokenDoc = {
    token_sid: randomUUID(),
    token_hash: hashToken(secret),
    partner_sid: p.partner_sid,
    name: opts.name ?? null,
    scopes: opts.scopes ?? p.available_scopes,
    date_created: now,
    date_expiration_access_token: opts.expiresIn ? new Date(now.getTime() + opts.expiresIn * 1000) : null,
    date_last_accessed: null,
  };
  await ctx.repo.tokens.insertOne(doc);
  return serializeToken(doc, secret);
}

/** The caller's partner while it is active; else the credentials are bad (401). */
async function activePartner(ctx: IdentityContext, partnerSid: string): Promise<PartnerDoc> {
  const p = await ctx.repo.partners.findOne({ partner_sid: partnerSid });
  if (!p || p.status !== 'active') throw new UnauthorizedError({ code: 'bad_credentials' });
  return p;
}

/** The tokens of the caller's partner. */
export async function listTokens(ctx: IdentityContext, req: GatewayRequest) {
  const { repo } = ctx;
  return runList({
    collection: repo.tokens,
    baseFilter: { partner_sid: req.principal.partner_sid },
    query: req.query,
    spec: TOKEN_LIST_SPEC,
    url: req.url,
    serialize: (t: TokenDoc) => serializeToken(t),
  });
}

/** One token of the caller's partner (`with_related`: its partner too). */
export async function getToken(ctx: IdentityContext, req: GatewayRequest) {
  const { repo } = ctx;
  const fields = parseFieldParams(req.query, TOKEN_LIST_SPEC);
  const t = await repo.tokens.findOne({
    token_sid: String(req.params.token_sid),
    partner_sid: req.principal.partner_sid,
  });
  if (!t) throw new NotFoundError();
  const withRelated = parseWithRelated(req.query);
  return applyFieldFilter(
    serializeToken(
      t,
      null,
      withRelated ? ((await repo.partners.findOne({ partner_sid: t.partner_sid })) ?? undefined) : undefined,
    ),
    fields.include,
    fields.exclude,
  );
}

/**
 * Renames a token or changes its scopes (within its partner's); announced as `evt.token.revoked` so caches forget it.
 */
export async function updateToken(ctx: IdentityContext, req: GatewayRequest) {
  const { repo, bus } = ctx;
  const input = validateUpdate(req.body ?? {});
  const p = await activePartner(ctx, req.principal.partner_sid);
  if (input.scopes) checkGrantable(input.scopes, p.available_scopes, 'scopes');
  const $set: Record<string, unknown> = {};
  if (input.name !== undefined) $set.name = input.name;
  if (input.scopes) $set.scopes = input.scopes;
  const filter = { token_sid: String(req.params.token_sid), partner_sid: req.principal.partner_sid };
  const t = Object.keys($set).length
    ? await repo.tokens.findOneAndUpdate(filter, { $set })
    : await repo.tokens.findOne(filter);
  if (!t) throw new NotFoundError();
  await bus.publish(Subjects.events.tokenRevoked, { token_sid: t.token_sid });
  return serializeToken(t);
}

/** Revokes the token named in the body, else the one the call came with; 204 either way. */
export async function revokeToken(ctx: IdentityContext, req: GatewayRequest) {
  const { repo, bus } = ctx;
  const secret = validateRevoke(req.body ?? {}).token;
  const filter = secret
    ? { token_hash: hashToken(secret), partner_sid: req.principal.partner_sid }
    : { token_sid: req.principal.token_sid ?? '' };
  const t = await repo.tokens.findOne(filter);
  if (t) {
    await repo.tokens.deleteOne({ token_sid: t.token_sid });
    await bus.publish(Subjects.events.tokenRevoked, { token_sid: t.token_sid });
  }
  return reply(204, null);
}
