import { randomUUID } from 'node:crypto';
import {
  parseFlag,
  NotFoundError,
  PushDeviceCreateSchema,
  PushDevicePatchSchema,
  UnprocessableError,
  compileValidator,
  type GatewayRequest,
  type PushDeviceCreate,
} from '@patchbay/contracts';
import { changedFields, compareAndSet, reply, type HandlerContext } from '@patchbay/platform';
import { DEFAULT_LIMIT, applyFieldFilter, parseFieldParams, requestedLimit, runList } from '@patchbay/query';
import { DEVICE_LIST_SPEC } from '../domain/list-specs';
import { registerDevice, releaseRegistrations } from '../device-registration';
import type { DeviceDoc } from '../domain/documents';
import { serializeDevice } from '../domain/serialize';
import type { PushContext } from '../context';
import { relatedPartner } from './related-partner';

const validateCreate = compileValidator(PushDeviceCreateSchema);
const validatePatch = compileValidator(PushDevicePatchSchema);

const DEVICE_FIELDS = ['application_sid', 'token', 'type', 'environment', 'application_version', 'os_version'] as const;
const stripUndefined = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** A device of the caller's partner, or 404 (another partner's is a 404 too). */
async function ownedDevice(ctx: PushContext, partnerSid: string, deviceSid: unknown): Promise<DeviceDoc> {
  const d = await ctx.repo.devices.findOne({ device_sid: String(deviceSid), partner_sid: partnerSid });
  if (!d) throw new NotFoundError();
  return d;
}

/** A device must name an application of its own partner: 422 otherwise (a reference to nothing). */
async function checkApplicationRef(ctx: PushContext, partnerSid: string, applicationSid: string): Promise<void> {
  const app = await ctx.repo.applications.findOne({ application_sid: applicationSid, partner_sid: partnerSid });
  if (!app) throw UnprocessableError.field('application_sid', 'application does not exist');
}

/** Registers a device of the caller's partner (reusing an existing registration unless `reuse=false`). */
export async function createDevice(ctx: PushContext, req: GatewayRequest) {
  const { repo, log } = ctx;
  const reuse = parseFlag(req.query, 'reuse', true);
  const input = validateCreate(req.body ?? {});
  const partnerSid = req.principal.partner_sid;
  await checkApplicationRef(ctx, partnerSid, input.application_sid);
  const doc: DeviceDoc = {
    device_sid: randomUUID(),
    partner_sid: partnerSid,
    application_sid: input.application_sid,
    token: input.token,
    type: input.type,
    environment: input.environment ?? 'production',
    application_version: input.application_version ?? '',
    os_version: input.os_version ?? '',
    date_created: new Date(),
  };
  const device = await registerDevice(repo, doc, reuse);
  if (device === doc)
    log.info(
      { device_sid: doc.device_sid, application_sid: doc.application_sid, partner_sid: partnerSid, type: doc.type },
      'device registered',
    );
  return serializeDevice(device);
}

/** The devices of the caller's partner (large pages through `lists`). */
export async function listDevices(ctx: PushContext, req: GatewayRequest, mc: HandlerContext) {
  const { repo } = ctx;
  const partner = await relatedPartner(ctx, req);
  const caller = req.principal.partner_sid;
  return ctx.lists.run(caller, requestedLimit(req.query, DEFAULT_LIMIT), mc.replied, () =>
    runList({
      collection: repo.devices,
      baseFilter: { partner_sid: caller },
      query: req.query,
      spec: DEVICE_LIST_SPEC,
      url: req.url,
      serialize: (d: DeviceDoc) => serializeDevice(d, partner),
    }),
  );
}

/** One device of the caller's partner. */
export async function getDevice(ctx: PushContext, req: GatewayRequest) {
  const selection = parseFieldParams(req.query, DEVICE_LIST_SPEC);
  const device = await ownedDevice(ctx, req.principal.partner_sid, req.params.device_sid);
  return applyFieldFilter(
    serializeDevice(device, await relatedPartner(ctx, req)),
    selection.include,
    selection.exclude,
  );
}

/**
 * PATCH or PUT (`whole`: the body is a whole device, and omitted optional fields take their defaults); a
 * compare-and-set on the device's revision.
 */
export async function updateDevice(ctx: PushContext, req: GatewayRequest, whole: boolean) {
  const { repo } = ctx;
  const body: Partial<PushDeviceCreate> = whole ? validateCreate(req.body ?? {}) : validatePatch(req.body ?? {});
  const filter = { device_sid: String(req.params.device_sid), partner_sid: req.principal.partner_sid };
  const { before, after } = await compareAndSet(repo.devices, filter, async (current) => {
    if (body.application_sid !== undefined && body.application_sid !== current.application_sid)
      await checkApplicationRef(ctx, current.partner_sid, body.application_sid);
    const defaults = whole ? { environment: 'production', application_version: '', os_version: '' } : {};
    return changedFields(current, { ...current, ...defaults, ...stripUndefined(body) }, DEVICE_FIELDS);
  });
  if (after.token !== before.token || after.type !== before.type || after.environment !== before.environment) {
    await releaseRegistrations(repo, { device_sid: after.device_sid });
  }
  return serializeDevice(after);
}

/** Deletes a device and releases its registrations. */
export async function deleteDevice(ctx: PushContext, req: GatewayRequest) {
  const { repo } = ctx;
  const device = await ownedDevice(ctx, req.principal.partner_sid, req.params.device_sid);
  await repo.devices.deleteOne({ device_sid: device.device_sid, partner_sid: device.partner_sid });
  await releaseRegistrations(repo, { device_sid: device.device_sid });
  return reply(204, null);
}
