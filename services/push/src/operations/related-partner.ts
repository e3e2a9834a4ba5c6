import { parseWithRelated, type GatewayRequest, type Partner } from '@patchbay/contracts';
import type { PushContext } from '../context';

/** The calling partner, for `with_related=true` (asked of the identity service). */
export async function relatedPartner(ctx: PushContext, req: GatewayRequest): Promise<Partner | undefined> {
  if (!parseWithRelated(req.query)) return undefined;
  return ctx.identity.partner(req.principal.partner_sid);
}
