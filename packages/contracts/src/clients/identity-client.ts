import type { Static } from '@sinclair/typebox';
import { unwrapReply } from '../reply';
import type { Partner } from '../schemas/partner';
import { Subjects } from '../subjects';
import type { Authenticated, BootstrapReply, BootstrapRequest, PartnerSidsReply } from '../messages/identity';
import type { AuthenticateBasicRequestSchema } from '../messages/identity';
import type { BusRequester, CallOptions } from './bus-requester';

/**
 * The identity requests other parts make, typed (messages/identity.ts). Errors arrive as the typed
 * errors of the reply (401, 404…); identity down is an UnavailableError or a TimeoutError.
 */
export class IdentityClient {
  constructor(
    private readonly bus: BusRequester,
    private readonly defaults: CallOptions = {},
  ) {}

  /** The principal a bearer token stands for, and until when the answer may be cached. */
  authenticateToken(token: string, opts?: CallOptions): Promise<Authenticated> {
    return this.call(Subjects.identity.authenticateToken, { token }, opts);
  }

  /** The principal of an HTTP Basic login and password (throttled by login and client address). */
  authenticateBasic(req: Static<typeof AuthenticateBasicRequestSchema>, opts?: CallOptions): Promise<Authenticated> {
    return this.call(Subjects.identity.authenticateBasic, req, opts);
  }

  /** Any partner by SID, no caller check (`with_related`, default containers). */
  partner(partnerSid: string, opts?: CallOptions): Promise<Partner> {
    return this.call(Subjects.identity.partnerLookup, { partner_sid: partnerSid }, opts);
  }

  /** A page of partner SIDs after `after`, in SID order. */
  partnerSids(after: string | null, limit: number, opts?: CallOptions): Promise<PartnerSidsReply> {
    return this.call(Subjects.identity.partnerSids, { after, limit }, opts);
  }

  /** Makes sure the first partner exists (idempotent). */
  bootstrap(req: BootstrapRequest, opts?: CallOptions): Promise<BootstrapReply> {
    return this.call(Subjects.identity.bootstrap, req, opts);
  }

  private async call<T>(subject: string, payload: unknown, opts?: CallOptions): Promise<T> {
    return unwrapReply<T>(await this.bus.request(subject, payload, { ...this.defaults, ...opts }));
  }
}
