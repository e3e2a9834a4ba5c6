import type { IdentityClient, Partner } from '@patchbay/contracts';

/**
 * The partner objects of `with_related=true`, asked from identity once per partner per request.
 * An identity failure fails the request (503/504), never a partial object.
 */
export class PartnerLookup {
  private readonly cache = new Map<string, Promise<Partner>>();

  constructor(
    private readonly identity: IdentityClient,
    private readonly requestId?: string,
  ) {}

  get(partnerSid: string): Promise<Partner> {
    let p = this.cache.get(partnerSid);
    if (!p) {
      p = this.identity.partner(partnerSid, { requestId: this.requestId });
      this.cache.set(partnerSid, p);
    }
    return p;
  }
}
