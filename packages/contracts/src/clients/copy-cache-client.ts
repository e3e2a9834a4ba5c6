import type {
  CopyClaimReply,
  CopyClaimRequest,
  CopyLeaseRequest,
  CopyRenewReply,
  CopyStoredRequest,
  CopyUsedRequest,
} from '../messages/copies';
import { unwrapReply } from '../reply';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';

/** What the file server and the transcoder ask of storage's cache of transcoded copies (messages/copies.ts). */
export class CopyCacheClient {
  constructor(
    private readonly bus: BusRequester,
    private readonly defaults: CallOptions = {},
  ) {}

  claim(req: CopyClaimRequest, opts?: CallOptions): Promise<CopyClaimReply> {
    return this.call(Subjects.storage.copyClaim, req, opts);
  }

  renew(req: CopyLeaseRequest, opts?: CallOptions): Promise<CopyRenewReply> {
    return this.call(Subjects.storage.copyRenew, req, opts);
  }

  async stored(req: CopyStoredRequest, opts?: CallOptions): Promise<void> {
    await this.call(Subjects.storage.copyStored, req, opts);
  }

  async release(req: CopyLeaseRequest, opts?: CallOptions): Promise<void> {
    await this.call(Subjects.storage.copyRelease, req, opts);
  }

  async used(req: CopyUsedRequest, opts?: CallOptions): Promise<void> {
    await this.call(Subjects.storage.copyUsed, req, opts);
  }

  private async call<T>(subject: string, payload: unknown, opts?: CallOptions): Promise<T> {
    return unwrapReply<T>(await this.bus.request(subject, payload, { ...this.defaults, ...opts }));
  }
}
