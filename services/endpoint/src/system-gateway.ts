import { randomUUID } from 'node:crypto';
import { DuplicateKeyError } from '@patchbay/contracts';
import type { Logger } from '@patchbay/platform';
import type { EndpointDoc } from './domain/documents';
import type { EndpointRepo } from './repo';

/** The System Gateway of a partner: a virtual routing gateway with no addresses and no properties. */
export function systemGatewayDoc(partnerSid: string, now = new Date()): EndpointDoc {
  return {
    endpoint_sid: randomUUID(),
    partner_sid: partnerSid,
    type: 'system_gateway',
    name: 'System Gateway',
    capacity: 0,
    cps_limit: null,
    auth_required: true,
    addresses: [],
    attributes: {},
    properties: {},
    transformations: [],
    out_sip_username: null,
    out_sip_password: null,
    voip_token: null,
    date_created: now,
    revision: 0,
    system_partner_sid: partnerSid,
  };
}

/**
 * Creates a new partner's System Gateway, from the durable `evt.partner.created` event (consumed in service.ts).
 * Idempotent: the unique `system_partner_sid` index lets one exist per partner, so a redelivered or replayed
 * event is a no-op. A new durable receives the stream's history, so partners created before this
 * service first ran get theirs too. A failure throws, and the event comes again.
 */
export async function systemGatewayForNewPartner(repo: EndpointRepo, partnerSid: string, log: Logger): Promise<void> {
  if (await ensureSystemGateway(repo, partnerSid)) log.info({ partner_sid: partnerSid }, 'system gateway created');
}

/** Creates the partner's System Gateway unless it exists; true when this call created it. */
export async function ensureSystemGateway(repo: EndpointRepo, partnerSid: string): Promise<boolean> {
  if (await repo.endpoints.findOne({ system_partner_sid: partnerSid }, { projection: { endpoint_sid: 1 } }))
    return false;
  try {
    await repo.endpoints.insertOne(systemGatewayDoc(partnerSid));
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false; // another replica (or delivery) got there first
    throw err;
  }
}
