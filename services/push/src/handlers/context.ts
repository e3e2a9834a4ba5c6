import { BadRequestError, Subjects, unwrapReply, type GatewayRequest, type Partner } from '@patchbay/contracts';
import type { Bus, Logger } from '@patchbay/platform';
import type { PushSettings } from '../config';
import type { PushRepo } from '../repo';
import type { SenderPool } from '../senders/sender-pool';
import type { KeyRing } from '@patchbay/platform';

/** What every push handler works with. */
export interface PushContext {
  repo: PushRepo;
  bus: Bus;
  log: Logger;
  pool: SenderPool;
  settings: PushSettings;
  /** Seals and opens the applications' credentials. */
  keys: KeyRing;
}

/** A boolean query parameter (`true`/`false`); absent → `fallback`; anything else is a 400 naming it. */
export function queryFlag(req: GatewayRequest, name: string, fallback: boolean): boolean {
  const raw = req.query[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw BadRequestError.field(name, `${name} must be true or false`);
}

/** The calling partner, for `with_related=true` (asked of the identity service). */
export async function relatedPartner(ctx: PushContext, req: GatewayRequest): Promise<Partner | undefined> {
  if (!queryFlag(req, 'with_related', false)) return undefined;
  return unwrapReply<Partner>(await ctx.bus.request(Subjects.identity.partnerLookup, { partner_sid: req.principal.partner_sid }, { timeoutMs: ctx.settings.busTimeoutMs }));
}
