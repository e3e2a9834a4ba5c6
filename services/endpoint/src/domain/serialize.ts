import type { Endpoint, Partner, VoicemailCallbackDelivery } from '@patchbay/contracts';
import type { CallbackDoc, EndpointDoc } from './documents';

/**
 * A stored endpoint as the API returns it: exactly the documented fields, in alphabetical order,
 * nulls included; `partner` only when given (`with_related=true`). Bookkeeping fields stay inside.
 */
export function serializeEndpoint(d: EndpointDoc, partner?: Partner): Endpoint {
  return {
    addresses: d.addresses.map((a) => ({
      direction: a.direction,
      dst_port: a.dst_port ?? null,
      ip: a.ip,
      location_sid: a.location_sid ?? null,
      port: a.port,
      priority: a.priority,
      sip_password: a.sip_password ?? null,
      sip_username: a.sip_username ?? null,
      srtp: a.srtp,
      subnet_mask: a.subnet_mask,
      transport: a.transport,
    })),
    attributes: { ...d.attributes },
    auth_required: d.auth_required,
    capacity: d.capacity,
    cps_limit: d.cps_limit ?? null,
    endpoint_sid: d.endpoint_sid,
    name: d.name,
    out_sip_password: d.out_sip_password ?? null,
    out_sip_username: d.out_sip_username ?? null,
    ...(partner ? { partner } : {}),
    partner_sid: d.partner_sid,
    properties: { ...d.properties },
    transformations: d.transformations ?? [],
    type: d.type,
    voip_token: d.voip_token ?? null,
  };
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A Voicemail callback delivery as `/media/callbacks` lists it. */
export function serializeDelivery(d: CallbackDoc): VoicemailCallbackDelivery {
  return {
    attempts: d.attempts,
    callback_method: d.callback_method,
    callback_url: d.callback_url,
    date_created: new Date(d.date_created).toISOString(),
    date_delivered: iso(d.date_delivered),
    date_next_attempt: d.state === 'pending' ? iso(d.next_attempt_at) : null,
    endpoint_sid: d.endpoint_sid,
    file_sid: d.file_sid,
    last_error: d.last_error,
    partner_sid: d.partner_sid,
    state: d.state,
  };
}
