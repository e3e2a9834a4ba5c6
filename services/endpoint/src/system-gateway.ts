import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, PartnerEventSchema, Queues, Subjects } from '@patchbay/contracts';
import { checkedEvent, type Bus, type Logger, type Subscription } from '@patchbay/platform';
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
 * Creates each partner's System Gateway on the durable `evt.partner.created` event. Idempotent:
 * the unique `system_partner_sid` index lets one exist per partner, so a redelivered or replayed
 * event is a no-op. A new durable receives the stream's history, so partners created before this
 * service first ran get theirs too. A failure throws, and the event comes again.
 */
export async function subscribeSystemGateways(bus: Bus, repo: EndpointRepo, logger: Logger): Promise<Subscription> {
  const log = logger.child({ mod: 'system-gateway' });
  return bus.subscribe(
    Subjects.events.partnerCreated,
    Queues.endpoint,
    checkedEvent(Subjects.events.partnerCreated, PartnerEventSchema, log, async ({ partner }) => {
      if (await ensureSystemGateway(repo, partner.partner_sid))
        log.info({ partner_sid: partner.partner_sid }, 'system gateway created');
    }),
  );
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
