import { parseWithRelated, type GatewayRequest, type IdentityClient, type Partner } from '@patchbay/contracts';
import type { Bus, Logger } from '@patchbay/platform';
import type { PushSettings } from '../config';
import type { PushRepo } from '../repo';
import type { SenderPool } from '../senders/sender-pool';
import type { KeyRing } from '@patchbay/platform';
import type { ListGate } from '@patchbay/query';

/** What every push handler works with. */
export interface PushContext {
  repo: PushRepo;
  bus: Bus;
  log: Logger;
  pool: SenderPool;
  settings: PushSettings;
  /** Partner objects for `with_related`. */
  identity: IdentityClient;
  /** Seals and opens the applications' credentials. */
  keys: KeyRing;
  /** Bounds the large lists of devices built and sent at once (LIST_LARGE_*). */
  lists: ListGate;
}

/** The calling partner, for `with_related=true` (asked of the identity service). */
export async function relatedPartner(ctx: PushContext, req: GatewayRequest): Promise<Partner | undefined> {
  if (!parseWithRelated(req.query)) return undefined;
  return ctx.identity.partner(req.principal.partner_sid);
}
