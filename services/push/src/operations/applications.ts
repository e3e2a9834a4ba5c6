import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  PushApplicationWriteSchema,
  compileValidator,
  type GatewayRequest,
  type PushApplicationWrite,
} from '@patchbay/contracts';
import { changedFields, compareAndSet, reply } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import { checkApplication, mergeApplication } from '../domain/application-fields';
import { releaseRegistrations } from '../device-registration';
import { APPLICATION_LIST_SPEC } from '../domain/list-specs';
import type { ApplicationDoc } from '../domain/documents';
import { sealCredentials } from '../secrets/application-secrets';
import { EditableCredentials } from '../secrets/editable-credentials';
import { serializeApplication } from '../domain/serialize';
import type { PushContext } from '../context';
import { relatedPartner } from './related-partner';

const validateWrite = compileValidator(PushApplicationWriteSchema);

/** An application of the caller's partner, or 404 (another partner's is a 404 too). */
export async function ownedApplication(
  ctx: PushContext,
  partnerSid: string,
  applicationSid: unknown,
): Promise<ApplicationDoc> {
  const app = await ctx.repo.applications.findOne({ application_sid: String(applicationSid), partner_sid: partnerSid });
  if (!app) throw new NotFoundError();
  return app;
}

/**
 * PATCH (`whole` false) or PUT of an application: a compare-and-set on the application's revision. The credentials,
 * their derived digest (`credentials_revision`) and the certificate's expiration are decided from
 * exactly the document they are written over; only the fields that change are written, and a
 * credential is sealed again only when its value changes (opened only to check the update against them).
 */
export async function updateApplication(ctx: PushContext, req: GatewayRequest, whole: boolean) {
  const { repo, log } = ctx;
  const input: PushApplicationWrite = validateWrite(req.body ?? {});
  const filter = { application_sid: String(req.params.application_sid), partner_sid: req.principal.partner_sid };
  let warned = false;
  const { before, after } = await compareAndSet(repo.applications, filter, (current) => {
    const editable = new EditableCredentials(ctx.keys, current);
    if (!warned)
      for (const u of editable.unreadable)
        log.warn(
          { application_sid: current.application_sid, field: u.field, kid: u.kid, reason: u.reason },
          'updating an application whose credential cannot be decrypted',
        );
    warned = true;
    const merged = mergeApplication(editable.fields, input, whole);
    editable.assertWritable(merged);
    const checked = checkApplication(merged, {
      fields: editable.fields,
      apns_p12_expiration: current.apns_p12_expiration,
    });
    const revision = ctx.keys.revision(checked.credentials_revision);
    const meta = changedFields(current, {
      apns_p12_expiration: checked.apns_p12_expiration,
      credentials_revision: revision,
    });
    const $set = { ...editable.changes(checked.fields), ...meta?.$set };
    if (Object.keys($set).length === 0) return null;
    // $inc, so two credential changes still end on distinct versions (open clients compare them).
    return revision !== current.credentials_revision ? { $set, $inc: { credentials_version: 1 } } : { $set };
  });
  if (after.credentials_revision !== before.credentials_revision) {
    void ctx.pool.invalidate(after.application_sid, 'credentials changed');
    log.info(
      { application_sid: after.application_sid, partner_sid: after.partner_sid },
      'application credentials changed',
    );
  }
  return serializeApplication(after);
}

/** Creates an application of the caller's partner, its credentials sealed before they are stored. */
export async function createApplication(ctx: PushContext, req: GatewayRequest) {
  const { repo, log } = ctx;
  const checked = checkApplication(mergeApplication(null, validateWrite(req.body ?? {}), false), null);
  const applicationSid = randomUUID();
  const doc: ApplicationDoc = {
    ...checked.fields,
    ...sealCredentials(ctx.keys, applicationSid, checked.fields),
    application_sid: applicationSid,
    partner_sid: req.principal.partner_sid,
    date_created: new Date(),
    apns_p12_expiration: checked.apns_p12_expiration,
    credentials_revision: ctx.keys.revision(checked.credentials_revision),
    credentials_version: 1,
  };
  await repo.applications.insertOne(doc);
  log.info({ application_sid: doc.application_sid, partner_sid: doc.partner_sid }, 'application created');
  return serializeApplication(doc);
}

/** The applications of the caller's partner. */
export async function listApplications(ctx: PushContext, req: GatewayRequest) {
  const { repo } = ctx;
  const partner = await relatedPartner(ctx, req);
  return runList({
    collection: repo.applications,
    baseFilter: { partner_sid: req.principal.partner_sid },
    query: req.query,
    spec: APPLICATION_LIST_SPEC,
    url: req.url,
    serialize: (a: ApplicationDoc) => serializeApplication(a, partner),
  });
}

/** One application of the caller's partner. */
export async function getApplication(ctx: PushContext, req: GatewayRequest) {
  const selection = parseFieldParams(req.query, APPLICATION_LIST_SPEC);
  const app = await ownedApplication(ctx, req.principal.partner_sid, req.params.application_sid);
  return applyFieldFilter(
    serializeApplication(app, await relatedPartner(ctx, req)),
    selection.include,
    selection.exclude,
  );
}

/** Deletes an application, then its devices and its clients. */
export async function deleteApplication(ctx: PushContext, req: GatewayRequest) {
  const { repo, log } = ctx;
  const app = await ownedApplication(ctx, req.principal.partner_sid, req.params.application_sid);
  // The application first, so no new device can join it; then its devices and clients.
  await repo.applications.deleteOne({ application_sid: app.application_sid, partner_sid: app.partner_sid });
  const devices = await repo.devices.deleteMany({
    application_sid: app.application_sid,
    partner_sid: app.partner_sid,
  });
  await releaseRegistrations(repo, { application_sid: app.application_sid });
  void ctx.pool.invalidate(app.application_sid, 'application deleted');
  log.info({ application_sid: app.application_sid, partner_sid: app.partner_sid, devices }, 'application deleted');
  return reply(204, null);
}
