import { randomUUID } from 'node:crypto';
import {
  DuplicateKeyError,
  NotFoundError,
  PartnerCreateSchema,
  PartnerUpdateSchema,
  Subjects,
  UnprocessableError,
  compileValidator,
  type GatewayRequest,
  type PartnerSidsRequest,
  type Principal,
  type Scope,
} from '@patchbay/contracts';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import { DEFAULT_PARTNER_SCOPES, checkGrantable } from '../domain/scope-rules';
import { hashPassword } from '../domain/secrets';
import { PARTNER_LIST_SPEC } from '../domain/list-specs';
import type { PartnerDoc } from '../domain/documents';
import { serializePartner } from '../domain/serialize';
import type { IdentityContext } from '../context';

const validateCreate = compileValidator(PartnerCreateSchema);
const validateUpdate = compileValidator(PartnerUpdateSchema);

export interface NewPartner {
  name?: string;
  login: string;
  password: string;
  available_scopes?: Scope[];
  attributes?: Record<string, unknown>;
  status?: 'active' | 'suspended';
}

/** Creates a partner and announces it (`evt.partner.created`: its System Gateway and default container follow). */
export async function createPartner(
  ctx: IdentityContext,
  input: NewPartner,
  parent: string | null,
): Promise<PartnerDoc> {
  const doc: PartnerDoc = {
    partner_sid: randomUUID(),
    parent_partner_sid: parent,
    name: input.name ?? 'N/A',
    login: input.login,
    password_hash: await hashPassword(input.password),
    available_scopes: input.available_scopes ?? DEFAULT_PARTNER_SCOPES,
    date_created: new Date(),
    status: input.status ?? 'active',
    attributes: input.attributes ?? {},
  };
  try {
    await ctx.repo.partners.insertOne(doc);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw UnprocessableError.field('login', 'login is already taken');
    throw err;
  }
  await ctx.bus.publish(
    Subjects.events.partnerCreated,
    { partner: serializePartner(doc) },
    { msgId: `partner-created-${doc.partner_sid}` },
  );
  ctx.log.info({ partner_sid: doc.partner_sid }, 'partner created');
  return doc;
}

/** A partner the caller may see: itself or one it created; anything else is a 404. */
async function visiblePartner(ctx: IdentityContext, caller: Principal, partnerSid: string): Promise<PartnerDoc> {
  const p = await ctx.repo.partners.findOne({ partner_sid: String(partnerSid) });
  if (!p || (p.partner_sid !== caller.partner_sid && p.parent_partner_sid !== caller.partner_sid))
    throw new NotFoundError();
  return p;
}

/** `POST /partners`: a partner of the caller's, by a holder of partners.manage, with no scope the caller lacks. */
export async function createChildPartner(ctx: IdentityContext, req: GatewayRequest) {
  const input = validateCreate(req.body ?? {});
  if (input.available_scopes)
    checkGrantable(input.available_scopes, req.principal.scopes, 'available_scopes', 'partner');
  const scopes = input.available_scopes ?? DEFAULT_PARTNER_SCOPES.filter((s) => req.principal.scopes.includes(s));
  return serializePartner(await createPartner(ctx, { ...input, available_scopes: scopes }, req.principal.partner_sid));
}

/** One partner the caller may see (itself or one it created). */
export async function getPartner(ctx: IdentityContext, req: GatewayRequest) {
  const fields = parseFieldParams(req.query, PARTNER_LIST_SPEC);
  return applyFieldFilter(
    serializePartner(await visiblePartner(ctx, req.principal, req.params.partner_sid)),
    fields.include,
    fields.exclude,
  );
}

/** Any partner by SID, for other services. */
export async function lookupPartner(ctx: IdentityContext, { partner_sid: partnerSid }: { partner_sid: string }) {
  const { repo } = ctx;
  const p = await repo.partners.findOne({ partner_sid: partnerSid });
  if (!p) throw new NotFoundError();
  return serializePartner(p);
}

/** A page of every partner SID in order, for other services (their backfills). */
export async function listPartnerSids(ctx: IdentityContext, { after, limit }: PartnerSidsRequest) {
  const { repo } = ctx;
  const page = await repo.partners.find(after ? { partner_sid: { $gt: after } } : {}, {
    sort: { partner_sid: 1 },
    limit: limit ?? 500,
    projection: { partner_sid: 1 },
  });
  return { partner_sids: page.map((p) => p.partner_sid) };
}

/** The caller and the partners it created. */
export async function listPartners(ctx: IdentityContext, req: GatewayRequest) {
  const { repo } = ctx;
  const base = {
    $or: [{ partner_sid: req.principal.partner_sid }, { parent_partner_sid: req.principal.partner_sid }],
  };
  return runList({
    collection: repo.partners,
    baseFilter: base,
    query: req.query,
    spec: PARTNER_LIST_SPEC,
    url: req.url,
    serialize: serializePartner,
  });
}

/** Updates a partner the caller may see (never its own scopes) and announces it (`evt.partner.updated`). */
export async function updatePartner(ctx: IdentityContext, req: GatewayRequest) {
  const { repo, bus } = ctx;
  const p = await visiblePartner(ctx, req.principal, req.params.partner_sid);
  const input = validateUpdate(req.body ?? {});
  if (input.available_scopes) {
    if (p.partner_sid === req.principal.partner_sid)
      throw UnprocessableError.field('available_scopes', 'a partner cannot change its own scopes');
    checkGrantable(input.available_scopes, req.principal.scopes, 'available_scopes', 'partner');
  }
  // Only the fields given are written: concurrent updates of different fields all land.
  const $set: Record<string, unknown> = {};
  for (const key of ['name', 'available_scopes', 'attributes', 'status'] as const)
    if (input[key] !== undefined) $set[key] = input[key];
  if (input.password) $set.password_hash = await hashPassword(input.password);
  const updated = Object.keys($set).length
    ? await repo.partners.findOneAndUpdate({ partner_sid: p.partner_sid }, { $set })
    : p;
  if (!updated) throw new NotFoundError();
  await bus.publish(Subjects.events.partnerUpdated, { partner: serializePartner(updated) });
  return serializePartner(updated);
}
