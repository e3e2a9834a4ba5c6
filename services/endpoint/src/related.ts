import { BadRequestError, Subjects, unwrapReply, type Partner } from '@patchbay/contracts';
import type { Bus } from '@patchbay/platform';

/** `with_related` (boolean, default false): anything but true/false is a 400 naming it. */
export function parseWithRelated(query: Record<string, unknown>): boolean {
  const v = Object.hasOwn(query, 'with_related') ? query.with_related : undefined;
  if (v === undefined || v === '') return false;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw BadRequestError.field('with_related', 'with_related must be true or false');
}

/**
 * The partner objects of `with_related=true`, asked from identity (`partnerLookup`) once per
 * partner per request. An identity failure fails the request (503/504), never a partial object.
 */
export class PartnerLookup {
  private readonly cache = new Map<string, Promise<Partner>>();

  constructor(private readonly bus: Bus, private readonly timeoutMs: number, private readonly requestId?: string) {}

  get(partnerSid: string): Promise<Partner> {
    let p = this.cache.get(partnerSid);
    if (!p) {
      p = this.bus.request(Subjects.identity.partnerLookup, { partner_sid: partnerSid }, { timeoutMs: this.timeoutMs, requestId: this.requestId })
        .then((reply) => unwrapReply<Partner>(reply));
      this.cache.set(partnerSid, p);
    }
    return p;
  }
}
