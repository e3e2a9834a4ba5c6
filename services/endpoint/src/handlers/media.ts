import { Subjects, type GatewayRequest, type VoicemailCallbackSchedule } from '@patchbay/contracts';
import type { EndpointContext } from '../context';
import {
  endpointsUsingContainer,
  listCallbackDeliveries,
  lookupEndpoint,
  scheduleVoicemailCallback,
} from '../operations/media-plane';

/** What the media plane and storage ask of the endpoint service (operations/media-plane.ts). */
export function mediaHandlers(ctx: EndpointContext) {
  return {
    [Subjects.endpoint.lookup]: (req: { endpoint_sid: string }) => lookupEndpoint(ctx, req.endpoint_sid),
    [Subjects.endpoint.usingContainer]: (req: { partner_sid: string; container_sid: string }) =>
      endpointsUsingContainer(ctx, req.partner_sid, req.container_sid),
    [Subjects.endpoint.callbackSchedule]: (req: VoicemailCallbackSchedule) => scheduleVoicemailCallback(ctx, req),
    [Subjects.endpoint.callbackList]: (req: GatewayRequest) => listCallbackDeliveries(ctx, req),
  };
}
