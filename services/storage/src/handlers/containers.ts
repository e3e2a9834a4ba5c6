import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  EndpointClient,
  DuplicateKeyError,
  NotFoundError,
  Subjects,
  UnprocessableError,
  compileValidator,
  unwrapReply,
  ContainerPatchSchema,
  ContainerPutSchema,
  errorItem,
  type ExternalStoreType,
  type GatewayRequest,
  type Partner,
} from '@patchbay/contracts';
import { changedFields, compareAndSet, reply } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import {
  CONTAINER_CREATE_ONLY,
  CONTAINER_DEFAULTS,
  DEFAULT_MAX_CONTAINERS,
  checkContainerRules,
  uniqueKey,
  type ContainerSettings,
} from '../domain/container-rules';
import { syncExceeded } from '../counters';
import type { ContainerDoc } from '../repo';
import { serializeContainer } from '../serialize';
import { CONTAINER_LIST_SPEC } from '../list-specs';
import type { StorageContext } from './context';
import { checkContainerKeys } from './encryption-keys';
import { keepMaskedCredentials, locationOf, sameLocation, type PlainAttributes } from '../domain/external-attributes';
import { checkExternalStorage, openContainerAttributes, saveStore, sealContainerAttributes } from '../external-stores';
import { Deadline } from '../external-deadline';
import { probeFailure } from '../domain/probe-failure';
import { checkLimitSettings, withoutNullLimits } from '../domain/external-limits';

const validatePatch = compileValidator(ContainerPatchSchema);
const validatePut = compileValidator(ContainerPutSchema);
const SETTINGS = Object.keys(CONTAINER_DEFAULTS) as Array<keyof ContainerSettings>;

/** Keeps only writable settings of a validated body (read-only fields sent back are ignored). */
function pickSettings(body: Record<string, unknown>): Partial<ContainerSettings> {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS) if (body[key] !== undefined) out[key] = body[key];
  return out as Partial<ContainerSettings>;
}

export function uniqueConflict(referenceSid: string, what: 'file' | 'container'): UnprocessableError {
  return UnprocessableError.field('unique', `${what} with the same set of keys already exists`, referenceSid);
}

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

async function maxContainers(ctx: StorageContext, partnerSid: string): Promise<number> {
  const partner = unwrapReply<Partner>(
    await ctx.bus.request(
      Subjects.identity.partnerLookup,
      { partner_sid: partnerSid },
      { timeoutMs: ctx.busTimeoutMs },
    ),
  );
  const raised = Number(partner.attributes?.max_containers);
  return Number.isInteger(raised) && raised > 0 ? raised : DEFAULT_MAX_CONTAINERS;
}

/** Takes one container slot of the partner atomically; false when the limit is reached. */
async function takeSlot(ctx: StorageContext, partnerSid: string, max: number): Promise<boolean> {
  await ctx.repo.limits.findOneAndUpdate({ partner_sid: partnerSid }, { $inc: { containers: 0 } }, { upsert: true });
  return (
    (await ctx.repo.limits.findOneAndUpdate(
      { partner_sid: partnerSid, containers: { $lt: max } },
      { $inc: { containers: 1 } },
    )) !== null
  );
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

function newContainerDoc(partnerSid: string, settings: ContainerSettings, isDefault: boolean): ContainerDoc {
  const now = new Date();
  return {
    ...settings,
    container_sid: randomUUID(),
    partner_sid: partnerSid,
    is_default: isDefault,
    ...(isDefault ? { default_for: partnerSid } : {}),
    ...(settings.unique ? { unique_key: uniqueKey(partnerSid, settings) } : {}),
    total_files: 0,
    total_bytes: 0,
    threshold_total_files: 0,
    threshold_total_bytes: 0,
    threshold_exceeded_at: null,
    date_created: now,
    date_modified: now,
  };
}

/** The default container of a partner, created on `evt.partner.created` (idempotent: replays are no-ops). */
export async function ensureDefaultContainer(ctx: StorageContext, partnerSid: string): Promise<ContainerDoc> {
  const existing = await ctx.repo.containers.findOne({ default_for: partnerSid });
  if (existing) return existing;
  const doc = newContainerDoc(partnerSid, { ...CONTAINER_DEFAULTS, name: 'default' }, true);
  try {
    await ctx.repo.containers.insertOne(doc);
  } catch (err) {
    if (err instanceof DuplicateKeyError) return (await ctx.repo.containers.findOne({ default_for: partnerSid }))!;
    throw err;
  }
  await ctx.repo.limits.findOneAndUpdate({ partner_sid: partnerSid }, { $inc: { containers: 1 } }, { upsert: true });
  ctx.log.info({ partner_sid: partnerSid, container_sid: doc.container_sid }, 'default container created');
  return doc;
}

export function containerHandlers(ctx: StorageContext) {
  const { repo } = ctx;

  /**
   * Checks an external storage within `deadline`; then, should the deadline have passed meanwhile,
   * refuses as the check would have: nothing is written after the caller may have stopped waiting.
   */
  async function checkInTime(type: ExternalStoreType, attrs: PlainAttributes, deadline: Deadline): Promise<void> {
    await checkExternalStorage(type, attrs, {
      allowPrivate: ctx.allowPrivateExternalStorage,
      deadline,
      log: ctx.log,
    });
    if (deadline.expired) throw new UnprocessableError([probeFailure('timeout', type)]);
  }

  /**
   * PATCH (`whole` false) or PUT. A compare-and-set on the container's revision: the cross-field
   * rules are checked against exactly the settings the change is written over, and only the
   * settings that change are written, so concurrent updates of different fields all land.
   */
  async function update(req: GatewayRequest, body: Partial<ContainerSettings>, whole: boolean) {
    const deadline = new Deadline(ctx.externalDeadlineMs);
    const filter = { container_sid: String(req.params.container_sid), partner_sid: req.principal.partner_sid };
    let uniqueKeyWritten: unknown;
    // The attributes last probed: a retried compare-and-set does not probe the same ones again.
    let probed: string | undefined;
    try {
      const { after } = await compareAndSet(repo.containers, filter, async (current) => {
        for (const field of CONTAINER_CREATE_ONLY) {
          if (body[field] !== undefined && body[field] !== current[field])
            throw UnprocessableError.field(field, `${field} cannot be changed after creation`);
        }
        const external = current.type !== 'internal';
        checkLimitSettings(external, body);
        const base = whole
          ? {
              ...CONTAINER_DEFAULTS,
              unique: current.unique,
              type: current.type,
              // A PUT without it keeps the keys (decisions §43): leaving them out never stops encryption.
              encryption_key_sids: current.encryption_key_sids ?? [],
            }
          : current;
        const next = { ...pickSettingsFrom(base), ...(external ? withoutNullLimits(body) : body) } as ContainerSettings;
        // A PATCH that leaves external_attributes out leaves them (sealed, as stored) unchecked.
        const touched = body.external_attributes !== undefined;
        const stored = touched ? openContainerAttributes(ctx.keys, current) : null;
        const sent = touched
          ? keepMaskedCredentials(next.external_attributes as PlainAttributes | null, stored?.credentials ?? null)
          : null;
        if (touched) next.external_attributes = sent;
        checkContainerRules(next);
        if (body.encryption_key_sids !== undefined)
          await checkContainerKeys(ctx, current.partner_sid, next.encryption_key_sids);
        let store: Record<string, unknown> = {};
        if (external && sent) {
          if (sameAttributes(sent, stored)) {
            next.external_attributes = current.external_attributes;
          } else {
            const type = current.type as ExternalStoreType;
            const key = JSON.stringify(sortedAttributes(sent));
            if (probed !== key) {
              await checkInTime(type, sent, deadline);
              probed = key;
            } else if (deadline.expired) {
              throw new UnprocessableError([probeFailure('timeout', type)]);
            }
            const moved = !current.external_store_id || !sameLocation(locationOf(sent), locationOf(stored ?? {}));
            const seq = (current.external_store_seq ?? 1) + (moved && current.external_store_id ? 1 : 0);
            const storeId = moved ? `${current.container_sid}.${seq}` : current.external_store_id!;
            await saveStore(ctx, current, storeId, type, sent);
            next.external_attributes = sealContainerAttributes(ctx.keys, current.container_sid, sent);
            store = { external_store_id: storeId, external_store_seq: seq };
          }
        }
        const change = changedFields(current, next, SETTINGS);
        if (!change) return null;
        const $set: Record<string, unknown> = { ...change.$set, ...store, date_modified: new Date() };
        if (current.unique) uniqueKeyWritten = $set.unique_key = uniqueKey(current.partner_sid, next);
        return { ...change, $set };
      });
      // Thresholds moved: the grace period starts (or ends) by the counters as they are now.
      await syncExceeded(repo, after);
      return serializeContainer(after);
    } catch (err) {
      if (err instanceof DuplicateKeyError && uniqueKeyWritten !== undefined) {
        const other = await repo.containers.findOne({
          unique_key: uniqueKeyWritten,
          container_sid: { $ne: filter.container_sid },
        });
        if (other) throw uniqueConflict(other.container_sid, 'container');
      }
      throw err;
    }
  }

  return {
    [Subjects.storage.containerCreate]: async (req: GatewayRequest) => {
      const deadline = new Deadline(ctx.externalDeadlineMs);
      const body = validatePatch(req.body ?? {});
      const external = body.type !== undefined && body.type !== 'internal';
      checkLimitSettings(external, body);
      const settings = {
        ...CONTAINER_DEFAULTS,
        ...pickSettings(external ? withoutNullLimits(body) : body),
      } as ContainerSettings;
      checkContainerRules(settings);
      await checkContainerKeys(ctx, req.principal.partner_sid, settings.encryption_key_sids);
      const plain = settings.type !== 'internal' ? (settings.external_attributes as PlainAttributes | null) : null;
      if (plain) await checkInTime(settings.type as ExternalStoreType, plain, deadline);
      const partnerSid = req.principal.partner_sid;
      // External containers do not count toward the container limit (docs/interface-notes.md, Files and containers).
      const counted = settings.type === 'internal';
      const max = counted ? await maxContainers(ctx, partnerSid) : 0;
      if (counted && !(await takeSlot(ctx, partnerSid, max)))
        throw new UnprocessableError([errorItem(`partner has reached its limit of ${max} containers`)]);
      const doc = newContainerDoc(partnerSid, settings, false);
      if (plain) {
        // Credentials sealed before anything is written; blobs go to store `<container_sid>.1`.
        doc.external_attributes = sealContainerAttributes(ctx.keys, doc.container_sid, plain);
        doc.external_store_id = `${doc.container_sid}.1`;
        doc.external_store_seq = 1;
        await saveStore(ctx, doc, doc.external_store_id, settings.type as ExternalStoreType, plain);
      }
      try {
        await insertContainer(ctx, doc);
      } catch (err) {
        if (counted) await repo.limits.updateOne({ partner_sid: partnerSid }, { $inc: { containers: -1 } });
        throw err;
      }
      return serializeContainer(doc);
    },
    [Subjects.storage.containerList]: async (req: GatewayRequest) => {
      return runList({
        collection: repo.containers,
        baseFilter: { partner_sid: req.principal.partner_sid },
        query: req.query,
        spec: CONTAINER_LIST_SPEC,
        url: req.url,
        serialize: serializeContainer,
      });
    },
    [Subjects.storage.containerGet]: async (req: GatewayRequest) => {
      const fields = parseFieldParams(req.query, CONTAINER_LIST_SPEC);
      return applyFieldFilter(
        serializeContainer(await ownedContainer(ctx, req.principal.partner_sid, req.params.container_sid)),
        fields.include,
        fields.exclude,
      );
    },
    [Subjects.storage.containerUpdate]: async (req: GatewayRequest) => {
      return update(req, pickSettings(validatePatch(req.body ?? {})), false);
    },
    [Subjects.storage.containerReplace]: async (req: GatewayRequest) => {
      return update(req, pickSettings(validatePut(req.body ?? {})), true);
    },
    [Subjects.storage.containerDelete]: async (req: GatewayRequest) => {
      const c = await ownedContainer(ctx, req.principal.partner_sid, req.params.container_sid);
      if (c.is_default) throw UnprocessableError.field('container_sid', 'the default container cannot be deleted');
      // An endpoint's recordings go to the container it names: deleting it would strand them (decisions §41).
      // When the endpoint service cannot say, nothing is deleted (its 503 is the answer).
      const { endpoint_sids: users } = await new EndpointClient(ctx.bus, {
        timeoutMs: ctx.busTimeoutMs,
      }).usingContainer(c.partner_sid, c.container_sid);
      if (users.length > 0)
        throw new ConflictError(
          users.map((sid) =>
            errorItem(`endpoint ${sid} names this container (properties.container_sid)`, 'container_sid', sid),
          ),
        );
      if (
        (await repo.files.countDocuments({ container_sid: c.container_sid })) > 0 ||
        (await repo.uploads.countDocuments({ container_sid: c.container_sid })) > 0
      ) {
        throw new ConflictError([errorItem('container still holds files', 'container_sid')]);
      }
      if (
        (await repo.containers.deleteOne({ container_sid: c.container_sid, total_files: 0 })) === 1 &&
        c.type === 'internal'
      ) {
        await repo.limits.updateOne({ partner_sid: c.partner_sid }, { $inc: { containers: -1 } });
      }
      return reply(204, null);
    },
    [Subjects.storage.containerCheck]: async ({
      partner_sid: partnerSid,
      container_sid: containerSid,
    }: {
      partner_sid: string;
      container_sid: string;
    }) => {
      return serializeContainer(await ownedContainer(ctx, partnerSid, containerSid));
    },
    [Subjects.storage.containerDefault]: async ({ partner_sid: partnerSid }: { partner_sid: string }) => {
      return serializeContainer(await ensureDefaultContainer(ctx, partnerSid));
    },
  };
}

/** Attributes with keys sorted at every level, for comparing. */
function sortedAttributes(a: PlainAttributes): unknown {
  const sort = (o: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k] && typeof o[k] === 'object' ? sort(o[k] as Record<string, unknown>) : o[k]]),
    );
  return sort(a);
}

function sameAttributes(a: PlainAttributes, b: PlainAttributes | null): boolean {
  return b !== null && JSON.stringify(sortedAttributes(a)) === JSON.stringify(sortedAttributes(b));
}

function pickSettingsFrom(c: ContainerSettings): ContainerSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS) out[key] = c[key];
  return out as ContainerSettings;
}
