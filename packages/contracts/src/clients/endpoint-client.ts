import { EndpointRequests } from '../messages/endpoint';
import type { EndpointLookupReply, VoicemailCallbackSchedule } from '../schemas/media';
import { Subjects } from '../subjects';
import type { BusRequester, CallOptions } from './bus-requester';
import { TableCaller } from './table-caller';

/** What the media plane asks of the endpoint service, typed by EndpointRequests (messages/endpoint.ts). */
export class EndpointClient {
  private readonly caller: TableCaller<typeof EndpointRequests>;

  constructor(bus: BusRequester, defaults: CallOptions = {}) {
    this.caller = new TableCaller(bus, EndpointRequests, defaults);
  }

  /** An endpoint by SID, whatever its partner (404 when unknown). */
  lookup(endpointSid: string, opts?: CallOptions): Promise<EndpointLookupReply> {
    return this.caller.call(Subjects.endpoint.lookup, { endpoint_sid: endpointSid }, opts);
  }

  /** The endpoints of a partner whose `properties.container_sid` names `containerSid` (at most 20). */
  usingContainer(partnerSid: string, containerSid: string, opts?: CallOptions): Promise<{ endpoint_sids: string[] }> {
    const req = { partner_sid: partnerSid, container_sid: containerSid };
    return this.caller.call(Subjects.endpoint.usingContainer, req, opts);
  }

  /**
   * Schedules the Voicemail callback of a stored recording; `scheduled` false when the endpoint has no callback_url.
   */
  scheduleCallback(schedule: VoicemailCallbackSchedule, opts?: CallOptions): Promise<{ scheduled: boolean }> {
    return this.caller.call(Subjects.endpoint.callbackSchedule, schedule, opts);
  }
}
