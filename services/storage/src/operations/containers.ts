import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  DuplicateKeyError,
  EndpointClient,
  IdentityClient,
  NotFoundError,
  UnprocessableError,
  errorItem,
  type Container,
  type ContainerPatch,
  type GatewayRequest,
} from '@patchbay/contracts';
import { reply } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import type { StorageContext } from '../context';
import { newContainerDoc } from '../domain/container-doc';
import {
  CONTAINER_DEFAULTS,
  DEFAULT_MAX_CONTAINERS,
  checkContainerRules,
  uniqueConflict,
} from '../domain/container-rules';
import type { ContainerDoc, ContainerSettings } from '../domain/documents';
import { checkLimitSettings, withoutNullLimits } from '../domain/external-limits';
import { CONTAINER_LIST_SPEC } from '../domain/list-specs';
import { serializeContainer } from '../domain/serialize';
import { sentSettings, sentAttributes } from './container-settings';
import { checkContainerKeys } from './encryption-keys';
import { checkExternalInTime, saveStore, sealContainerAttributes } from './external-stores';
import { Deadline } from '../external-deadline';

/** A container of the caller's partner, or 404 (another partner's is a 404 too). */
export async function ownedContainer(
  ctx: StorageContext,
  partnerSid: string,
  containerSid: string,
): Promise<ContainerDoc> {
  const c = await ctx.repo.containers.findOne({ container_sid: String(containerSid), partner_sid: partnerSid });
  if (!c) throw new NotFoundError();
  return c;
}

/** The default container of a partner, created on `evt.partner.created` (idempotent: replays are no-ops). */
export async function ensureDefaultContainer(ctx: StorageContext, partnerSid: string): Promise<ContainerDoc> {
  const existing = await ctx.repo.containers.findOne({ default_for: partnerSid });
  if (existing) return existing;
  const settings = { ...CONTAINER_DEFAULTS, name: 'default' };
  const doc = newContainerDoc(partnerSid, settings, true, { container_sid: randomUUID(), now: new Date() });
  try {
    await ctx.repo.containers.insertOne(doc);
  } catch (err) {
    const raced = err instanceof DuplicateKeyError && (await ctx.repo.containers.findOne({ default_for: partnerSid }));
    if (raced) return raced;
    throw err;
  }
  await ctx.repo.limits.findOneAndUpdate({ partner_sid: partnerSid }, { $inc: { containers: 1 } }, { upsert: true });
  ctx.log.info({ partner_sid: partnerSid, container_sid: doc.container_sid }, 'default container created');
  return doc;
}

/**
 * POST /storage/containers: the settings sent over the defaults, checked (rules, keys, an external
 * storage probed within the request's deadline), a slot of the partner's container limit taken
 * (internal containers only), an external container's credentials sealed before anything is written.
 */
export async function createContainer(
  ctx: StorageContext,
  partnerSid: string,
  body: ContainerPatch,
): Promise<Container> {
  const deadline = new Deadline(ctx.externalDeadlineMs);
  const external = body.type !== undefined && body.type !== 'internal';
  checkLimitSettings(external, body);
  const settings: ContainerSettings = {
    ...CONTAINER_DEFAULTS,
    ...sentSettings(external ? withoutNullLimits(body) : body),
  };
  checkContainerRules(settings);
  await checkContainerKeys(ctx, partnerSid, settings.encryption_key_sids);
  const type = settings.type;
  const plain = type !== 'internal' ? sentAttributes(settings) : null;
  if (type !== 'internal' && plain) await checkExternalInTime(ctx, type, plain, deadline);
  // External containers do not count toward the container limit (docs/interface-notes.md, Files and containers).
  const counted = type === 'internal';
  const max = counted ? await maxContainers(ctx, partnerSid) : 0;
  if (counted && !(await takeSlot(ctx, partnerSid, max)))
    throw new UnprocessableError({
      errors: [
        errorItem(
          `partner has reached its limit of ${max} containers; an operator raises it with the partner attribute ` +
            `max_containers: patchbay partner update ${partnerSid} --max-containers ${max + 1} ` +
            `(or PATCH /partners/${partnerSid} with attributes.max_containers)`,
        ),
      ],
    });
  const doc = newContainerDoc(partnerSid, settings, false, { container_sid: randomUUID(), now: new Date() });
  if (type !== 'internal' && plain) {
    // Credentials sealed before anything is written; blobs go to store `<container_sid>.1`.
    doc.external_attributes = sealContainerAttributes(ctx.keys, doc.container_sid, plain);
    doc.external_store_id = `${doc.container_sid}.1`;
    doc.external_store_seq = 1;
    await saveStore(ctx, doc, doc.external_store_id, type, plain);
  }
  try {
    await insertContainer(ctx, doc);
  } catch (err) {
    if (counted) await ctx.repo.limits.updateOne({ partner_sid: partnerSid }, { $inc: { containers: -1 } });
    throw err;
  }
  return serializeContainer(doc);
}

export function listContainers(ctx: StorageContext, req: GatewayRequest) {
  return runList({
    collection: ctx.repo.containers,
    baseFilter: { partner_sid: req.principal.partner_sid },
    query: req.query,
    spec: CONTAINER_LIST_SPEC,
    url: req.url,
    serialize: serializeContainer,
  });
}

/** GET one container, with `include_fields`/`exclude_fields` applied. */
export async function getContainer(ctx: StorageContext, req: GatewayRequest): Promise<Record<string, unknown>> {
  const fields = parseFieldParams(req.query, CONTAINER_LIST_SPEC);
  const c = await ownedContainer(ctx, req.principal.partner_sid, req.params.container_sid);
  return applyFieldFilter(serializeContainer(c), fields.include, fields.exclude);
}

/** Internal: a container of the partner, as the API returns it (endpoint's reference check). */
export async function checkContainer(
  ctx: StorageContext,
  partnerSid: string,
  containerSid: string,
): Promise<Container> {
  return serializeContainer(await ownedContainer(ctx, partnerSid, containerSid));
}

/** Internal: the partner's default container, created if it does not exist yet. */
export async function defaultContainer(ctx: StorageContext, partnerSid: string): Promise<Container> {
  return serializeContainer(await ensureDefaultContainer(ctx, partnerSid));
}

/**
 * DELETE: never the default container, one an endpoint names (its recordings would be stranded:
 * decisions §41; when the endpoint service cannot say, nothing is deleted and its 503 is the answer),
 * or one that still holds files or uploads.
 */
export async function deleteContainer(ctx: StorageContext, partnerSid: string, containerSid: string) {
  const { repo } = ctx;
  const c = await ownedContainer(ctx, partnerSid, containerSid);
  if (c.is_default) throw UnprocessableError.field('container_sid', 'the default container cannot be deleted');
  const endpoints = new EndpointClient(ctx.bus, { timeoutMs: ctx.busTimeoutMs });
  const { endpoint_sids: users } = await endpoints.usingContainer(c.partner_sid, c.container_sid);
  if (users.length > 0)
    throw new ConflictError({
      errors: users.map((sid) =>
        errorItem(`endpoint ${sid} names this container (properties.container_sid)`, 'container_sid', sid),
      ),
    });
  if (
    (await repo.files.countDocuments({ container_sid: c.container_sid })) > 0 ||
    (await repo.uploads.countDocuments({ container_sid: c.container_sid })) > 0
  ) {
    throw new ConflictError({ errors: [errorItem('container still holds files', 'container_sid')] });
  }
  if (
    (await repo.containers.deleteOne({ container_sid: c.container_sid, total_files: 0 })) === 1 &&
    c.type === 'internal'
  ) {
    await repo.limits.updateOne({ partner_sid: c.partner_sid }, { $inc: { containers: -1 } });
  }
  // Its usage history goes with it (a snapshot a tick writes meanwhile is only ever read through the container).
  await repo.containerUsage.deleteMany({ container_sid: c.container_sid });
  return reply(204, null);
}

/** How many containers the partner may hold: its `max_containers` attribute, else the default. */
async function maxContainers(ctx: StorageContext, partnerSid: string): Promise<number> {
  const partner = await new IdentityClient(ctx.bus, { timeoutMs: ctx.busTimeoutMs }).partner(partnerSid);
  const raised = Number(partner.attributes?.max_containers);
  return Number.isInteger(raised) && raised > 0 ? raised : DEFAULT_MAX_CONTAINERS;
}

/** Takes one container slot of the partner atomically; false when the limit is reached. */
async function takeSlot(ctx: StorageContext, partnerSid: string, max: number): Promise<boolean> {
  await ctx.repo.limits.findOneAndUpdate({ partner_sid: partnerSid }, { $inc: { containers: 0 } }, { upsert: true });
  const taken = await ctx.repo.limits.findOneAndUpdate(
    { partner_sid: partnerSid, containers: { $lt: max } },
    { $inc: { containers: 1 } },
  );
  return taken !== null;
}

async function insertContainer(ctx: StorageContext, doc: ContainerDoc): Promise<void> {
  try {
    await ctx.repo.containers.insertOne(doc);
  } catch (err) {
    if (err instanceof DuplicateKeyError && doc.unique_key) {
      const existing = await ctx.repo.containers.findOne({ unique_key: doc.unique_key });
      if (existing) throw uniqueConflict(existing.container_sid, 'container');
    }
    throw err;
  }
}
