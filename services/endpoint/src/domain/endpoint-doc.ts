import type { EndpointDoc } from './documents';
import { openIpKeys } from './addresses';
import type { EndpointState } from './endpoint-state';

/** The public state of a stored endpoint (bookkeeping left out). */
export function stateOf(d: EndpointDoc): EndpointState {
  return {
    type: d.type,
    name: d.name,
    capacity: d.capacity,
    cps_limit: d.cps_limit ?? null,
    auth_required: d.auth_required,
    addresses: d.addresses,
    attributes: d.attributes ?? {},
    properties: d.properties ?? {},
    transformations: d.transformations ?? [],
    out_sip_username: d.out_sip_username ?? null,
    out_sip_password: d.out_sip_password ?? null,
    voip_token: d.voip_token ?? null,
  };
}

/** The stored document; `open_ip_keys` only when there are keys (absent, not null: see the index). */
export function toDoc(
  state: EndpointState,
  meta: Pick<EndpointDoc, 'endpoint_sid' | 'partner_sid' | 'date_created' | 'revision'>,
): EndpointDoc {
  const keys = openIpKeys(state);
  return { ...state, ...meta, ...(keys ? { open_ip_keys: keys } : {}) };
}
