import {
  DuplicateKeyError,
  NotFoundError,
  type EndpointLookupReply,
  type GatewayRequest,
  type VoicemailCallbackSchedule,
} from '@patchbay/contracts';
import { runList } from '@patchbay/query';
import type { EndpointContext } from '../context';
import { CALLBACK_LIST_SPEC } from '../domain/list-specs';
import { serializeDelivery } from '../domain/serialize';
import type { CallbackDoc } from '../domain/documents';

/*
 * What the media plane asks of the endpoint service: an endpoint by SID whatever its partner (the
 * rules of which container a recording goes to and what an endpoint may play are storage's, but
 * the endpoint is ours), Voicemail callbacks to schedule after a recording, and their list.
 */

/** An endpoint by SID, whatever its partner (404 when unknown). */
export async function lookupEndpoint(ctx: EndpointContext, endpointSid: string): Promise<EndpointLookupReply> {
  const e = await ctx.repo.endpoints.findOne({ endpoint_sid: endpointSid });
  if (!e) throw new NotFoundError();
  const p = e.properties ?? {};
  return {
    endpoint_sid: e.endpoint_sid,
    partner_sid: e.partner_sid,
    type: e.type,
    container_sid: p.container_sid ?? null,
    conference_endpoint_sid: p.conference_endpoint_sid ?? null,
    callback_url: p.callback_url ?? null,
    max_duration: p.max_duration ?? null,
  };
}

/** The endpoints of a partner whose `properties.container_sid` names the container (at most 20). */
export async function endpointsUsingContainer(
  ctx: EndpointContext,
  partnerSid: string,
  containerSid: string,
): Promise<{ endpoint_sids: string[] }> {
  const users = await ctx.repo.endpoints.find(
    { partner_sid: partnerSid, 'properties.container_sid': containerSid },
    { projection: { endpoint_sid: 1 }, limit: 20, sort: { endpoint_sid: 1 } },
  );
  return { endpoint_sids: users.map((e) => e.endpoint_sid) };
}

/**
 * A stored recording's Voicemail callback, put in the outbox (idempotent: keyed by file) for the
 * deliverer; `scheduled` false when the endpoint has no callback_url.
 */
export async function scheduleVoicemailCallback(
  ctx: EndpointContext,
  rec: VoicemailCallbackSchedule,
): Promise<{ scheduled: boolean }> {
  const e = await ctx.repo.endpoints.findOne({
    endpoint_sid: rec.endpoint_sid,
    partner_sid: rec.partner_sid,
    type: 'voicemail',
  });
  const url = e?.properties?.callback_url;
  if (!e || !url) return { scheduled: false };
  const now = new Date();
  const doc: CallbackDoc = {
    file_sid: rec.file_sid,
    endpoint_sid: rec.endpoint_sid,
    partner_sid: rec.partner_sid,
    callback_url: url,
    callback_method: e.properties.callback_method === 'GET' ? 'GET' : 'POST',
    fields: { ...rec },
    state: 'pending',
    attempts: 0,
    date_created: now,
    next_attempt_at: now,
    lease_until: null,
    date_delivered: null,
    last_error: null,
  };
  try {
    await ctx.repo.callbacks.insertOne(doc);
    ctx.log
      .child({ mod: 'media' })
      .info({ file_sid: rec.file_sid, endpoint_sid: rec.endpoint_sid }, 'voicemail callback scheduled');
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err; // scheduled before: idempotent
  }
  ctx.deliverer.kick();
  return { scheduled: true };
}

/**
 * `/endpoints/{sid}/callbacks`: a partner's own endpoint only (404 otherwise); the operator's
 * `/media/callbacks`: every delivery (decisions §41).
 */
export async function listCallbackDeliveries(ctx: EndpointContext, req: GatewayRequest) {
  const endpointSid = req.params.endpoint_sid;
  let baseFilter: Record<string, unknown> = {};
  if (endpointSid !== undefined) {
    const own = await ctx.repo.endpoints.findOne(
      { endpoint_sid: String(endpointSid), partner_sid: req.principal.partner_sid },
      { projection: { endpoint_sid: 1 } },
    );
    if (!own) throw new NotFoundError();
    baseFilter = { partner_sid: req.principal.partner_sid, endpoint_sid: own.endpoint_sid };
  }
  return runList({
    collection: ctx.repo.callbacks,
    baseFilter,
    query: req.query,
    spec: CALLBACK_LIST_SPEC,
    url: req.url,
    serialize: serializeDelivery,
  });
}
