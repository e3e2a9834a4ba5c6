import {
  DuplicateKeyError,
  NotFoundError,
  Subjects,
  type EndpointLookupReply,
  type GatewayRequest,
  type VoicemailCallbackDelivery,
  type VoicemailCallbackSchedule,
} from '@patchbay/contracts';
import { defineListSpec, runList } from '@patchbay/query';
import type { CallbackDoc } from '../repo';
import type { EndpointContext } from './context';

/** GET /media/callbacks: the operator's view of Voicemail callback deliveries, newest first by default. */
export const CALLBACK_LIST_SPEC = defineListSpec({
  fields: {
    file_sid: 'uuid',
    endpoint_sid: 'uuid',
    partner_sid: 'uuid',
    state: 'string',
    attempts: 'integer',
    date_created: 'date',
  },
  defaultOrder: { field: 'date_created', dir: 'desc' },
  sidField: 'file_sid',
});

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function serializeDelivery(d: CallbackDoc): VoicemailCallbackDelivery {
  return {
    attempts: d.attempts,
    callback_method: d.callback_method,
    callback_url: d.callback_url,
    date_created: iso(d.date_created) as string,
    date_delivered: iso(d.date_delivered),
    date_next_attempt: d.state === 'pending' ? iso(d.next_attempt_at) : null,
    endpoint_sid: d.endpoint_sid,
    file_sid: d.file_sid,
    last_error: d.last_error,
    partner_sid: d.partner_sid,
    state: d.state,
  };
}

/**
 * What the media plane asks of the endpoint service: an endpoint by SID whatever its partner (the
 * rules of which container a recording goes to and what an endpoint may play are storage's, but
 * the endpoint is ours), Voicemail callbacks to schedule after a recording, and their list.
 */
export function mediaHandlers(ctx: EndpointContext) {
  const { repo, deliverer } = ctx;
  const log = ctx.log.child({ mod: 'media' });
  return {
    [Subjects.endpoint.lookup]: async ({
      endpoint_sid: sid,
    }: {
      endpoint_sid: string;
    }): Promise<EndpointLookupReply> => {
      const e = await repo.endpoints.findOne({ endpoint_sid: sid });
      if (!e) throw new NotFoundError();
      const p = e.properties ?? {};
      return {
        endpoint_sid: e.endpoint_sid,
        partner_sid: e.partner_sid,
        type: e.type,
        container_sid: p.container_sid ?? null,
        conference_endpoint_sid: p.conference_endpoint_sid ?? null,
        callback_url: p.callback_url ?? null,
      };
    },
    [Subjects.endpoint.usingContainer]: async ({
      partner_sid: partnerSid,
      container_sid: containerSid,
    }: {
      partner_sid: string;
      container_sid: string;
    }): Promise<{ endpoint_sids: string[] }> => {
      const users = await repo.endpoints.find(
        { partner_sid: partnerSid, 'properties.container_sid': containerSid },
        { projection: { endpoint_sid: 1 }, limit: 20, sort: { endpoint_sid: 1 } },
      );
      return { endpoint_sids: users.map((e) => e.endpoint_sid) };
    },
    [Subjects.endpoint.callbackSchedule]: async (rec: VoicemailCallbackSchedule) => {
      const e = await repo.endpoints.findOne({
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
        await repo.callbacks.insertOne(doc);
        log.info({ file_sid: rec.file_sid, endpoint_sid: rec.endpoint_sid }, 'voicemail callback scheduled');
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err; // scheduled before: idempotent
      }
      deliverer.kick();
      return { scheduled: true };
    },
    [Subjects.endpoint.callbackList]: async (req: GatewayRequest) => {
      // `/endpoints/{sid}/callbacks`: a partner's own endpoint only (404 otherwise); the operator's
      // `/media/callbacks`: every delivery (decisions §41).
      const endpointSid = req.params.endpoint_sid;
      let baseFilter: Record<string, unknown> = {};
      if (endpointSid !== undefined) {
        const own = await repo.endpoints.findOne(
          { endpoint_sid: String(endpointSid), partner_sid: req.principal.partner_sid },
          { projection: { endpoint_sid: 1 } },
        );
        if (!own) throw new NotFoundError();
        baseFilter = { partner_sid: req.principal.partner_sid, endpoint_sid: own.endpoint_sid };
      }
      return runList({
        collection: repo.callbacks,
        baseFilter,
        query: req.query,
        spec: CALLBACK_LIST_SPEC,
        url: req.url,
        serialize: serializeDelivery,
      });
    },
  };
}
