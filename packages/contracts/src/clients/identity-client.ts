import type { Partner } from '../schemas/partner';
import { Subjects } from '../subjects';
import {
  IdentityRequests,
  type Authenticated,
  type BootstrapReply,
  type BootstrapRequest,
  type PartnerSidsReply,
} from '../messages/identity';
import type {
  IdempotencyBeginReply,
  IdempotencyBeginRequest,
  IdempotencyFinishRequest,
  IdempotencyHeldReply,
  IdempotencyReleaseRequest,
  IdempotencyRenewRequest,
} from '../messages/idempotency';
import type { BusRequester, CallOptions } from './bus-requester';
import { TableCaller, type RequestOf } from './table-caller';

/**
 * The identity requests other parts make, typed by IdentityRequests (messages/identity.ts). Errors arrive as the
 * typed errors of the reply (401, 404…); identity down is an UnavailableError or a TimeoutError.
 */
export class IdentityClient {
  private readonly caller: TableCaller<typeof IdentityRequests>;

  constructor(bus: BusRequester, defaults: CallOptions = {}) {
    this.caller = new TableCaller(bus, IdentityRequests, defaults);
  }

  /** The principal a bearer token stands for, and until when the answer may be cached. */
  authenticateToken(token: string, opts?: CallOptions): Promise<Authenticated> {
    return this.caller.call(Subjects.identity.authenticateToken, { token }, opts);
  }

  /** The principal of an HTTP Basic login and password (throttled by login and client address). */
  authenticateBasic(
    req: RequestOf<typeof IdentityRequests, typeof Subjects.identity.authenticateBasic>,
    opts?: CallOptions,
  ): Promise<Authenticated> {
    return this.caller.call(Subjects.identity.authenticateBasic, req, opts);
  }

  /** Any partner by SID, no caller check (`with_related`, default containers). */
  partner(partnerSid: string, opts?: CallOptions): Promise<Partner> {
    return this.caller.call(Subjects.identity.partnerLookup, { partner_sid: partnerSid }, opts);
  }

  /** A page of partner SIDs after `after`, in SID order. */
  partnerSids(after: string | null, limit: number, opts?: CallOptions): Promise<PartnerSidsReply> {
    return this.caller.call(Subjects.identity.partnerSids, { after, limit }, opts);
  }

  /** Claims an Idempotency-Key for a request, or says why not (messages/idempotency.ts). */
  idempotencyBegin(req: IdempotencyBeginRequest, opts?: CallOptions): Promise<IdempotencyBeginReply> {
    return this.caller.call(Subjects.identity.idempotencyBegin, req, opts);
  }

  /** Keeps the answer of the request that holds the key. */
  idempotencyFinish(req: IdempotencyFinishRequest, opts?: CallOptions): Promise<IdempotencyHeldReply> {
    return this.caller.call(Subjects.identity.idempotencyFinish, req, opts);
  }

  /** Forgets a claim whose answer is not kept (5xx, the client gone): a retry runs again. */
  idempotencyRelease(req: IdempotencyReleaseRequest, opts?: CallOptions): Promise<IdempotencyHeldReply> {
    return this.caller.call(Subjects.identity.idempotencyRelease, req, opts);
  }

  /** Extends the claim of a request still running. */
  idempotencyRenew(req: IdempotencyRenewRequest, opts?: CallOptions): Promise<IdempotencyHeldReply> {
    return this.caller.call(Subjects.identity.idempotencyRenew, req, opts);
  }

  /** Makes sure the first partner exists (idempotent). */
  bootstrap(req: BootstrapRequest, opts?: CallOptions): Promise<BootstrapReply> {
    return this.caller.call(Subjects.identity.bootstrap, req, opts);
  }
}
