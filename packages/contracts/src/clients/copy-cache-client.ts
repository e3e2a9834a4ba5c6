import {
  CopyCacheRequests,
  type CopyClaimReply,
  type CopyClaimRequest,
  type CopyLeaseRequest,
  type CopyRenewReply,
  type CopyRenewRequest,
  type CopyStoredRequest,
  type CopyUsedRequest,
} from '../messages/copies';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';
import { TableCaller } from './table-caller';

/** What the file server and the transcoder ask of storage's cache of transcoded copies (messages/copies.ts). */
export class CopyCacheClient {
  private readonly caller: TableCaller<typeof CopyCacheRequests>;

  constructor(bus: BusRequester, defaults: CallOptions = {}) {
    this.caller = new TableCaller(bus, CopyCacheRequests, defaults);
  }

  claim(req: CopyClaimRequest, opts?: CallOptions): Promise<CopyClaimReply> {
    return this.caller.call(Subjects.storage.copyClaim, req, opts);
  }

  renew(req: CopyRenewRequest, opts?: CallOptions): Promise<CopyRenewReply> {
    return this.caller.call(Subjects.storage.copyRenew, req, opts);
  }

  async stored(req: CopyStoredRequest, opts?: CallOptions): Promise<void> {
    await this.caller.call(Subjects.storage.copyStored, req, opts);
  }

  async release(req: CopyLeaseRequest, opts?: CallOptions): Promise<void> {
    await this.caller.call(Subjects.storage.copyRelease, req, opts);
  }

  async used(req: CopyUsedRequest, opts?: CallOptions): Promise<void> {
    await this.caller.call(Subjects.storage.copyUsed, req, opts);
  }
}
