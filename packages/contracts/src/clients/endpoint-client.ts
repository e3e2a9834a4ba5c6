import { unwrapReply } from '../reply';
import type { EndpointLookupReply, VoicemailCallbackSchedule } from '../schemas/media';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';

/** What the media plane asks of the endpoint service, typed (messages/endpoint.ts). */
export class EndpointClient {
  constructor(
    private readonly bus: BusRequester,
    private readonly defaults: CallOptions = {},
  ) {}

  /** An endpoint by SID, whatever its partner (404 when unknown). */
  lookup(endpointSid: string, opts?: CallOptions): Promise<EndpointLookupReply> {
    return this.call(Subjects.endpoint.lookup, { endpoint_sid: endpointSid }, opts);
  }

  /** The endpoints of a partner whose `properties.container_sid` names `containerSid` (at most 20). */
  usingContainer(partnerSid: string, containerSid: string, opts?: CallOptions): Promise<{ endpoint_sids: string[] }> {
    return this.call(Subjects.endpoint.usingContainer, { partner_sid: partnerSid, container_sid: containerSid }, opts);
  }

  /**
   * Schedules the Voicemail callback of a stored recording; `scheduled` false when the endpoint has no callback_url.
   */
  scheduleCallback(schedule: VoicemailCallbackSchedule, opts?: CallOptions): Promise<{ scheduled: boolean }> {
    return this.call(Subjects.endpoint.callbackSchedule, schedule, opts);
  }

  private async call<T>(subject: string, payload: unknown, opts?: CallOptions): Promise<T> {
    return unwrapReply<T>(await this.bus.request(subject, payload, { ...this.defaults, ...opts }));
  }
}
