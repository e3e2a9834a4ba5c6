import { randomUUID } from 'node:crypto';
import {
  ALL_SCOPES, NotFoundError, Subjects, Queues, UnauthorizedError, UnprocessableError, DuplicateKeyError, compileValidator,
  PartnerCreateSchema, PartnerUpdateSchema, TokenRequestSchema, TokenUpdateSchema,
  type GatewayRequest, type Principal, type Scope,
} from '@patchbay/contracts';
import { serveAll, stopAll, reply, type ServiceDeps, type Stoppable } from '@patchbay/platform';
import { runList } from '@patchbay/query';
import { openIdentityRepo, type IdentityRepo, type PartnerDoc, type TokenDoc } from './repo';
import { hashPassword, hashToken, newPassword, newTokenSecret, verifyPassword } from './domain/secrets';
import { DEFAULT_PARTNER_SCOPES, checkGrantable, effectiveScopes } from './domain/scope-rules';
import { serializePartner, serializeToken } from './serialize';
import { PARTNER_LIST_SPEC, TOKEN_LIST_SPEC } from './list-specs';

const validatePartnerCreate = compileValidator(PartnerCreateSchema);
const validatePartnerUpdate = compileValidator(PartnerUpdateSchema);
const validateTokenRequest = compileValidator(TokenRequestSchema);
const validateTokenUpdate = compileValidator(TokenUpdateSchema);

/** Bumping `date_last_accessed` on every call would be a write per request; once a minute is enough. */
const LAST_ACCESS_RESOLUTION_MS = 60_000;

/**
 * The identity service: owns partners and tokens, authenticates every gateway call.
 * Tokens and passwords are stored hashed; the secret is returned once, at creation.
 */
export async function startIdentityService(deps: ServiceDeps): Promise<Stoppable> {
  const { bus, logger } = deps;
  const log = logger.child({ mod: 'identity' });
  const repo = await openIdentityRepo(deps.docs);

  const principalFor = (p: PartnerDoc, scopes: Scope[], tokenSid: string | null): Principal => ({ partner_sid: p.partner_sid, login: p.login, scopes, token_sid: tokenSid });

  async function activePartner(partnerSid: string): Promise<PartnerDoc> {
    const p = await repo.partners.findOne({ partner_sid: partnerSid });
    if (!p || p.status !== 'active') throw new UnauthorizedError('Bad credentials');
    return p;
  }

  /** A partner the caller may see: itself or one it created. */
  async function visiblePartner(caller: Principal, partnerSid: string): Promise<PartnerDoc> {
    const p = await repo.partners.findOne({ partner_sid: partnerSid });
    if (!p || (p.partner_sid !== caller.partner_sid && p.parent_partner_sid !== caller.partner_sid)) throw new NotFoundError();
    return p;
  }

  async function createPartner(input: { name?: string; login: string; password: string; available_scopes?: Scope[]; attributes?: Record<string, unknown>; status?: 'active' | 'suspended' }, parent: string | null): Promise<PartnerDoc> {
    const doc: PartnerDoc = {
      partner_sid: randomUUID(), parent_partner_sid: parent, name: input.name ?? 'N/A', login: input.login,
      password_hash: await hashPassword(input.password), available_scopes: input.available_scopes ?? DEFAULT_PARTNER_SCOPES,
      date_created: new Date(), status: input.status ?? 'active', attributes: input.attributes ?? {},
    };
    try {
      await repo.partners.insertOne(doc);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw UnprocessableError.field('login', 'login is already taken');
      throw err;
    }
    await bus.publish(Subjects.events.partnerCreated, { partner: serializePartner(doc) }, { msgId: `partner-created-${doc.partner_sid}` });
    log.info({ partner_sid: doc.partner_sid }, 'partner created');
    return doc;
  }

  async function issueToken(p: PartnerDoc, opts: { scopes?: Scope[]; name?: string | null; expiresIn?: number; secret?: string }) {
    if (opts.scopes) checkGrantable(opts.scopes, p.available_scopes, 'scopes');
    const secret = opts.secret ?? newTokenSecret();
    const now = new Date();
    const doc: TokenDoc = {
      token_sid: randomUUID(), token_hash: hashToken(secret), partner_sid: p.partner_sid, name: opts.name ?? null,
      scopes: opts.scopes ?? p.available_scopes, date_created: now,
      date_expiration_access_token: opts.expiresIn ? new Date(now.getTime() + opts.expiresIn * 1000) : null, date_last_accessed: null,
    };
    await repo.tokens.insertOne(doc);
    return serializeToken(doc, secret);
  }

  const handlers = {
    [Subjects.identity.authenticateToken]: async (payload: unknown) => {
      const { token } = payload as { token: string };
      const t = await repo.tokens.findOne({ token_hash: hashToken(String(token)) });
      if (!t || (t.date_expiration_access_token && new Date(t.date_expiration_access_token) <= new Date())) throw new UnauthorizedError('Bad credentials');
      const p = await activePartner(t.partner_sid);
      if (!t.date_last_accessed || Date.now() - new Date(t.date_last_accessed).getTime() > LAST_ACCESS_RESOLUTION_MS) {
        await repo.tokens.updateOne({ token_sid: t.token_sid }, { $set: { date_last_accessed: new Date() } });
      }
      // The expiry travels with the principal, so a gateway never trusts the token past it.
      const expiresAt = t.date_expiration_access_token ? new Date(t.date_expiration_access_token).toISOString() : null;
      return { principal: principalFor(p, effectiveScopes(t.scopes, p.available_scopes), t.token_sid), expires_at: expiresAt };
    },
    [Subjects.identity.authenticateBasic]: async (payload: unknown) => {
      const { login, password } = payload as { login: string; password: string };
      const p = await repo.partners.findOne({ login: String(login) });
      if (!p || p.status !== 'active' || !(await verifyPassword(String(password), p.password_hash))) throw new UnauthorizedError('Bad credentials');
      return { principal: principalFor(p, p.available_scopes, null) };
    },
    [Subjects.identity.partnerCreate]: async (payload: unknown) => {
      const req = payload as GatewayRequest;
      const input = validatePartnerCreate(req.body ?? {});
      if (input.available_scopes) checkGrantable(input.available_scopes, req.principal.scopes, 'available_scopes');
      const scopes = input.available_scopes ?? DEFAULT_PARTNER_SCOPES.filter((s) => req.principal.scopes.includes(s));
      return serializePartner(await createPartner({ ...input, available_scopes: scopes }, req.principal.partner_sid));
    },
    [Subjects.identity.partnerGet]: async (payload: unknown) => {
      const req = payload as GatewayRequest;
      return serializePartner(await visiblePartner(req.principal, req.params.partner_sid));
    },
    [Subjects.identity.partnerLookup]: async (payload: unknown) => {
      const p = await repo.partners.findOne({ partner_sid: String((payload as { partner_sid: string }).partner_sid) });
      if (!p) throw new NotFoundError();
      return serializePartner(p);
    },
    [Subjects.identity.partnerSids]: async (payload: unknown) => {
      const { after, limit } = (payload ?? {}) as { after?: string; limit?: number };
      const page = await repo.partners.find(after ? { partner_sid: { $gt: String(after) } } : {}, { sort: { partner_sid: 1 }, limit: Math.min(Math.max(Number(limit) || 500, 1), 1000), projection: { partner_sid: 1 } });
      return { partner_sids: page.map((p) => p.partner_sid) };
    },
    [Subjects.identity.partnerList]: async (payload: unknown) => {
      const req = payload as GatewayRequest;
      const base = { $or: [{ partner_sid: req.principal.partner_sid }, { parent_partner_sid: req.principal.partner_sid }] };
      return runList({ collection: repo.partners, baseFilter: base, query: req.query, spec: PARTNER_LIST_SPEC, url: req.url, serialize: serializePartner });
    },
    [Subjects.identity.partnerUpdate]: async (payload: unknown) => {
      const req = payload as GatewayRequest;
      const p = await visiblePartner(req.principal, req.params.partner_sid);
      const input = validatePartnerUpdate(req.body ?? {});
      if (input.available_scopes) {
        if (p.partner_sid === req.principal.partner_sid) throw UnprocessableError.field('available_scopes', 'a partner cannot change its own scopes');
        checkGrantable(input.available_scopes, req.principal.scopes, 'available_scopes');
      }
      const $set: Record<string, unknown> = {};
      for (const key of ['name', 'available_scopes', 'attributes', 'status'] as const) if (input[key] !== undefined) $set[key] = input[key];
      if (input.password) $set.password_hash = await hashPassword(input.password);
      const updated = Object.keys($set).length ? await repo.partners.findOneAndUpdate({ partner_sid: p.partner_sid }, { $set }) : p;
      if (!updated) throw new NotFoundError();
      await bus.publish(Subjects.events.partnerUpdated, { partner: serializePartner(updated) });
      return serializePartner(updated);
    },
    [Subjects.identity.tokenIssue]: async (payload: unknown) => {
      const input = validateTokenRequest((payload as { form: unknown }).form ?? {});
      const p = await repo.partners.findOne({ login: input.username });
      if (!p || p.status !== 'active' || !(await verifyPassword(input.password, p.password_hash))) throw new UnauthorizedError('Bad credentials');
      return issueToken(p, { scopes: input.scopes, name: input.name, expiresIn: input.access_token_expires_in });
    },
    [Subjects.identity.tokenList]: async (payload: unknown) => {
      const req = payload as GatewayRequest;
      return runList({ collection: repo.tokens, baseFilter: { partner_sid: req.principal.partner_sid }, query: req.query, spec: TOKEN_LIST_SPEC, url: req.url, serialize: (t: TokenDoc) => serializeToken(t) });
    },
    [Subjects.identity.tokenGet]: async (payload: unknown) => {
      const req = payload as GatewayRequest;
      const t = await repo.tokens.findOne({ token_sid: req.params.token_sid, partner_sid: req.principal.partner_sid });
      if (!t) throw new NotFoundError();
      const withRelated = String(req.query.with_related ?? '') === 'true';
      return serializeToken(t, null, withRelated ? (await repo.partners.findOne({ partner_sid: t.partner_sid })) ?? undefined : undefined);
    },
    [Subjects.identity.tokenUpdate]: async (payload: unknown) => {
      const req = payload as GatewayRequest;
      const input = validateTokenUpdate(req.body ?? {});
      const p = await activePartner(req.principal.partner_sid);
      if (input.scopes) checkGrantable(input.scopes, p.available_scopes, 'scopes');
      const $set: Record<string, unknown> = {};
      if (input.name !== undefined) $set.name = input.name;
      if (input.scopes) $set.scopes = input.scopes;
      const filter = { token_sid: req.params.token_sid, partner_sid: req.principal.partner_sid };
      const t = Object.keys($set).length ? await repo.tokens.findOneAndUpdate(filter, { $set }) : await repo.tokens.findOne(filter);
      if (!t) throw new NotFoundError();
      await bus.publish(Subjects.events.tokenRevoked, { token_sid: t.token_sid });
      return serializeToken(t);
    },
    [Subjects.identity.tokenRevoke]: async (payload: unknown) => {
      const req = payload as GatewayRequest<{ token?: string }>;
      const secret = req.body?.token;
      const filter = secret ? { token_hash: hashToken(String(secret)), partner_sid: req.principal.partner_sid } : { token_sid: req.principal.token_sid ?? '' };
      const t = await repo.tokens.findOne(filter);
      if (t) {
        await repo.tokens.deleteOne({ token_sid: t.token_sid });
        await bus.publish(Subjects.events.tokenRevoked, { token_sid: t.token_sid });
      }
      return reply(204, null);
    },
    [Subjects.identity.bootstrap]: async (payload: unknown) => bootstrap(repo, payload as BootstrapRequest, createPartner, issueToken),
  };

  const subs = await serveAll(bus, Queues.identity, handlers, log);
  log.info('identity service ready');
  return { stop: () => stopAll(subs) };
}

export interface BootstrapRequest { login?: string; password?: string; token?: string }

/**
 * Makes sure the first partner exists, holding every scope. Idempotent: the fixed login, password
 * and token of PATCHBAY_BOOTSTRAP_* are (re)applied; generated ones are returned only when created.
 */
async function bootstrap(
  repo: IdentityRepo, input: BootstrapRequest,
  createPartner: (i: { name: string; login: string; password: string; available_scopes: Scope[] }, parent: null) => Promise<PartnerDoc>,
  issueToken: (p: PartnerDoc, o: { name: string; secret?: string }) => Promise<unknown>,
) {
  const login = input.login ?? 'admin';
  let partner = await repo.partners.findOne({ login });
  let password: string | null = null;
  let created = false;
  if (!partner) {
    password = input.password ?? newPassword();
    partner = await createPartner({ name: 'Bootstrap partner', login, password, available_scopes: [...ALL_SCOPES] }, null);
    created = true;
  } else if (input.password && !(await verifyPassword(input.password, partner.password_hash))) {
    await repo.partners.updateOne({ login }, { $set: { password_hash: await hashPassword(input.password) } });
  }
  if (input.password) password = input.password;
  let accessToken: string | null = null;
  if (input.token) {
    const existing = await repo.tokens.findOne({ token_hash: hashToken(input.token) });
    if (!existing) await issueToken(partner, { name: 'bootstrap', secret: input.token });
    accessToken = input.token;
  } else if (created) {
    accessToken = ((await issueToken(partner, { name: 'bootstrap' })) as { access_token: string }).access_token;
  }
  return { created, partner: serializePartner(partner), login, password, access_token: accessToken };
}
