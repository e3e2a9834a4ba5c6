import { Subjects, type GatewayRequest, type PartnerSidsRequest } from '@patchbay/contracts';
import type { IdentityContext } from '../context';
import {
  createChildPartner,
  getPartner,
  listPartnerSids,
  listPartners,
  lookupPartner,
  updatePartner,
} from '../operations/partners';

/** Partners: create (by a holder of partners.manage), get, list, update; lookups for other services. */
export function partnerHandlers(ctx: IdentityContext) {
  return {
    [Subjects.identity.partnerCreate]: (req: GatewayRequest) => createChildPartner(ctx, req),
    [Subjects.identity.partnerGet]: (req: GatewayRequest) => getPartner(ctx, req),
    [Subjects.identity.partnerLookup]: (req: { partner_sid: string }) => lookupPartner(ctx, req),
    [Subjects.identity.partnerSids]: (req: PartnerSidsRequest) => listPartnerSids(ctx, req),
    [Subjects.identity.partnerList]: (req: GatewayRequest) => listPartners(ctx, req),
    [Subjects.identity.partnerUpdate]: (req: GatewayRequest) => updatePartner(ctx, req),
  };
}
